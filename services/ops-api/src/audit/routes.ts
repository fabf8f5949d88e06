import { auditEndpoints } from '@corridor/contracts';
import { registerEndpoint, type App, type Orm } from '@corridor/platform';
import { auditPage } from '@corridor/platform/audit/audit-query';
import { audit } from './audit';

const [, , , operationsAudit] = auditEndpoints;

/** GET /audit/operations: shipment, cargo, certificate, complaint, sanction and device decisions, for the association. */
export function auditRoutes(app: App, db: Orm): void {
  registerEndpoint(app, operationsAudit, async (req) => auditPage(audit, db, req.query));
}
