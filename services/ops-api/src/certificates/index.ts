import type { CompaniesRepository } from '../companies/repository';
import type { DocumentsService } from '../documents/service';
import type { OpsModule } from '../module';
import type { NotificationsService } from '../notifications/service';
import { certificatesRepository } from './repository';
import { certificateRoutes } from './routes';
import { certificatesService } from './service';
import { defaultCertificateSettings, type CertificateSettings } from './settings';

/** Certificates (fees, validity, verification links): their service and routes. */
export const certificatesModule: OpsModule<
  { companies: CompaniesRepository; documents: DocumentsService; inbox: NotificationsService; settings?: Partial<CertificateSettings> },
  void
> = (app, { base, companies, documents, inbox, settings }) => {
  certificateRoutes(
    app,
    certificatesService({
      db: base.db,
      repo: certificatesRepository(base.db),
      companies,
      documents,
      notifications: inbox,
      clock: base.clock,
      settings: { ...defaultCertificateSettings, ...settings },
      logger: base.logger.child({ module: 'certificates' }),
    }),
  );
};
