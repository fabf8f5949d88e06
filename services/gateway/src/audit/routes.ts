import { auditEndpoints } from '@corridor/contracts';
import { registerEndpoint, type App, type Orm } from '@corridor/platform';
import { auditPage } from '@corridor/platform/audit/audit-query';
import { audit } from './audit';

const [identityAudit] = auditEndpoints;

/** GET /audit/identity: the identity trail (users, permissions, tokens, sessions), for administrators and officers. */
export function auditRoutes(app: App, db: Orm): void {
  registerEndpoint(app, identityAudit, async (req) => auditPage(audit, db, req.query));
}
