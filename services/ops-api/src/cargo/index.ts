import type { DocumentsService } from '../documents/service';
import type { OpsModule } from '../module';
import type { IdfReaders } from './idf-reader';
import { cargoRepository } from './repository';
import { cargoRoutes } from './routes';
import { cargoService, type CargoService } from './service';

/** Cargo declarations (IDF exports read by the parsers): their service and routes. */
export const cargoModule: OpsModule<{ documents: DocumentsService; readers: IdfReaders }, CargoService> = (
  app,
  { base, documents, readers },
) => {
  const cargo = cargoService({
    db: base.db,
    repo: cargoRepository(base.db),
    documents,
    readers,
    logger: base.logger.child({ module: 'cargo' }),
  });
  cargoRoutes(app, cargo, { documents });
  return cargo;
};
