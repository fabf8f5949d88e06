import type { IdfReaders } from '../cargo/idf-reader';
import type { CargoService } from '../cargo/service';
import type { DocumentsService } from '../documents/service';
import type { OpsModule } from '../module';
import { shipmentsRepository } from './repository';
import { shipmentRoutes } from './routes';
import { shipmentsService } from './service';

/** Shipments, with their documents and cargo: their service and routes. */
export const shipmentsModule: OpsModule<{ documents: DocumentsService; readers: IdfReaders; cargo: CargoService }, void> = (
  app,
  { base, documents, readers, cargo },
) => {
  const shipments = shipmentsService({
    db: base.db,
    repo: shipmentsRepository(base.db),
    documents,
    cargoOf: cargo.idsOf,
    logger: base.logger.child({ module: 'shipments' }),
  });
  shipmentRoutes(app, shipments, { documents, pdf: readers.pdf });
};
