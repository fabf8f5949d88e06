import type { OpsModule } from '../module';
import { companiesRepository, type CompaniesRepository } from './repository';
import { companyRoutes } from './routes';

/** Companies: the seeded first company, their repository (which other modules check ids against) and routes. */
export const companiesModule: OpsModule<object, CompaniesRepository> = async (app, { base }) => {
  const repo = companiesRepository(base.db);
  await repo.seedIfEmpty();
  companyRoutes(app, repo);
  return repo;
};
