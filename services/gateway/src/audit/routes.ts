import { auditEndpoints, type OperationsAuditPage } from '@corridor/contracts';
import { registerEndpoint, type App, type Orm } from '@corridor/platform';
import { auditPage } from '@corridor/platform/audit/audit-query';
import { opsApiCaller, type OpsApiOptions } from '../http/ops-api-caller';
import { audit } from './audit';
import { traccarActions } from './traccar-actions';

const [identityAudit, , , , traccarAudit] = auditEndpoints;

/**
 * GET /audit/identity: the identity trail (users, permissions, tokens, sessions), for administrators
 * and officers; GET /audit: Traccar's audit log over both the identity and the operations trail.
 */
export function auditRoutes(app: App, db: Orm, ops: OpsApiOptions): void {
  registerEndpoint(app, identityAudit, async (req) => auditPage(audit, db, req.query));
  const call = opsApiCaller(ops, 'operations audit trail');
  const actions = traccarActions({
    db,
    opsAudit: async (who, query) => (await call('GET', who, `/audit/operations${query}`)) as OperationsAuditPage,
  });
  registerEndpoint(app, traccarAudit, async (req) => actions(req.query, req.identity!));
}
