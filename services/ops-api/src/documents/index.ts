import type { InternalKeys } from '@corridor/platform';
import type { CompaniesRepository } from '../companies/repository';
import type { OpsModule } from '../module';
import { documentsRepository } from './repository';
import { documentRoutes } from './routes';
import { documentsService, type DocumentsService } from './service';
import type { DocumentsSettings } from './settings';

/** The shared document store (uploads, generated PDFs, signed download links): its service and routes. */
export const documentsModule: OpsModule<
  { settings: DocumentsSettings; linkSecret: InternalKeys; companies: CompaniesRepository },
  DocumentsService
> = (app, { base, settings, linkSecret, companies }) => {
  const documents = documentsService({
    ...settings,
    repo: documentsRepository(base.db),
    linkSecret,
    companyExists: (id) => companies.exists(id),
    logger: base.logger.child({ module: 'documents' }),
  });
  documentRoutes(app, documents);
  return documents;
};
