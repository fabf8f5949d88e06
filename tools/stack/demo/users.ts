import { usersEndpoints, type User } from '@corridor/contracts';
import { DEMO_ACCOUNTS } from './accounts';
import type { DemoClient } from './client';

const [list, create] = [usersEndpoints.find((e) => e.id === 'users.list')!, usersEndpoints.find((e) => e.id === 'users.create')!];

/** Creates the demo accounts that do not exist yet (by email); returns their ids by role. */
export async function ensureDemoUsers(admin: DemoClient): Promise<Record<keyof typeof DEMO_ACCOUNTS, number>> {
  const existing = await admin.call<User[]>(list);
  const ids = {} as Record<keyof typeof DEMO_ACCOUNTS, number>;
  for (const [role, a] of Object.entries(DEMO_ACCOUNTS) as [
    keyof typeof DEMO_ACCOUNTS,
    (typeof DEMO_ACCOUNTS)[keyof typeof DEMO_ACCOUNTS],
  ][]) {
    const found = existing.find((u) => u.email.toLowerCase() === a.email);
    ids[role] = found
      ? found.id
      : (
          await admin.call<User>(create, {
            body: { name: a.name, email: a.email, password: a.password, roles: a.roles, companyId: a.companyId },
          })
        ).id;
  }
  return ids;
}
