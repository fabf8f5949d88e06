import { auditEndpoints } from '@corridor/contracts';
import { registerEndpoint, type App, type Orm } from '@corridor/platform';
import { auditPage } from '@corridor/platform/audit/audit-query';
import { audit } from './audit';

const [, journeysAudit] = auditEndpoints;

/** GET /audit/journeys: decisions on routes, journeys and flags, for the association. */
export function auditRoutes(app: App, db: Orm): void {
  registerEndpoint(app, journeysAudit, async (req) => auditPage(audit, db, req.query));
}
