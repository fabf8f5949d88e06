import type { CompaniesRepository } from '../companies/repository';
import type { ComplaintsRepository } from '../complaints/repository';
import type { OpsModule } from '../module';
import type { NotificationsService } from '../notifications/service';
import { disciplinaryRepository } from './repository';
import { disciplinaryRoutes } from './routes';
import { disciplinaryService } from './service';

/** Sanctions decided on complaints: their service and routes. */
export const disciplinaryModule: OpsModule<
  { companies: CompaniesRepository; complaints: ComplaintsRepository; inbox: NotificationsService },
  void
> = (app, { base, companies, complaints, inbox }) => {
  disciplinaryRoutes(
    app,
    disciplinaryService({
      db: base.db,
      repo: disciplinaryRepository(base.db),
      complaints,
      notifications: inbox,
      clock: base.clock,
      companyExists: (id) => companies.exists(id),
      companyName: async (id) => (await companies.get(id))?.name,
    }),
  );
};
