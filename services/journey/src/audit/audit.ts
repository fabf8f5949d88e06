import { JourneyAuditEntity } from '@corridor/contracts';
import { createAuditTrail, type Identity } from '@corridor/platform';
import { auditLog } from '../db/schema';

/** Decisions on routes, journeys and flags (platform `createAuditTrail` over `journey.audit_log`). */
export const audit = createAuditTrail(auditLog, { entityTypes: JourneyAuditEntity.options });

/** Decisions the platform takes on its own (seeding), audited under this actor. */
export const systemActor: Identity = { userId: 0, email: 'system', name: 'system', roles: ['admin'], companyId: null };

/** Writes one audit row on the handle it is given (pass a transaction so the row commits with the decision). */
export const recordAudit = audit.record;
