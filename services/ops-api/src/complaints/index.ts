import type { CompaniesRepository } from '../companies/repository';
import type { DevicesRepository } from '../devices/repository';
import type { OpsModule } from '../module';
import type { NotificationsService } from '../notifications/service';
import { complaintsRepository, type ComplaintsRepository } from './repository';
import { complaintRoutes } from './routes';
import { complaintsService } from './service';

/** Complaints against drivers and companies: their service and routes; gives the disciplinary module their repository. */
export const complaintsModule: OpsModule<
  { companies: CompaniesRepository; devices: DevicesRepository; inbox: NotificationsService; reopenDays?: number },
  ComplaintsRepository
> = (app, { base, companies, devices, inbox, reopenDays = 14 }) => {
  const repo = complaintsRepository(base.db);
  complaintRoutes(
    app,
    complaintsService({
      db: base.db,
      repo,
      notifications: inbox,
      clock: base.clock,
      reopenDays,
      companyExists: (id) => companies.exists(id),
      deviceCompany: async (id) => (await devices.get(id))?.companyId,
    }),
  );
  return repo;
};
