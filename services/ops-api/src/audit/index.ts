import type { OpsModule } from '../module';
import { auditRoutes } from './routes';

/** The audit trail's read side (the entries every module writes with audit()): its routes. */
export const auditModule: OpsModule<object, void> = (app, { base }) => {
  auditRoutes(app, base.db);
};
