import { auditEndpoints } from '@corridor/contracts';
import { registerEndpoint, type App, type Orm } from '@corridor/platform';
import { auditPage } from '@corridor/platform/audit/audit-query';
import { audit } from './audit';

const [, , geofencesAudit] = auditEndpoints;

/** GET /audit/geofences: fence changes and links, for the association. */
export function auditRoutes(app: App, db: Orm): void {
  registerEndpoint(app, geofencesAudit, async (req) => auditPage(audit, db, req.query));
}
