import type { Role, ServiceName } from '@corridor/contracts';
import { IDENTITY_HEADER, signIdentity, type Identity } from '../identity';

/** The secret services use in tests (published: refused outside development and tests). */
export const TEST_IDENTITY_SECRET = 'test-internal-secret-0123456789';

export const testUsers = {
  admin: { userId: 1, email: 'admin@test', name: 'Admin', roles: ['admin'], companyId: null },
  officer: { userId: 2, email: 'officer@test', name: 'Officer', roles: ['association_officer'], companyId: null },
  analyst: { userId: 3, email: 'analyst@test', name: 'Analyst', roles: ['association_analyst'], companyId: null },
  dispatcher: { userId: 4, email: 'dispatcher@test', name: 'Dispatcher', roles: ['dispatcher'], companyId: null },
  companyA: { userId: 5, email: 'a@company-a.test', name: 'Company A user', roles: ['company_user'], companyId: 101 },
  agentA: { userId: 6, email: 'agent@company-a.test', name: 'Company A agent', roles: ['clearing_agent'], companyId: 101 },
  companyB: { userId: 7, email: 'b@company-b.test', name: 'Company B user', roles: ['company_user'], companyId: 202 },
} satisfies Record<string, Identity>;

export function userWith(roles: Role[], companyId: number | null = null, userId = 99): Identity {
  return { userId, email: `user${userId}@test`, name: 'Test user', roles, companyId };
}

/** Every service as an audience: tests sign one token that whichever service they call accepts. */
const everyService: ServiceName[] = ['gateway', 'ingest', 'journey', 'geofence', 'ops-api'];

/** Headers carrying a signed identity, as the gateway would forward them (to any service). */
export async function asUser(
  identity: Identity,
  secret = TEST_IDENTITY_SECRET,
  audience: ServiceName | ServiceName[] = everyService,
): Promise<Record<string, string>> {
  return { [IDENTITY_HEADER]: await signIdentity(identity, secret, audience) };
}
