import { DemoClient } from './client';
import { ensureDemoUsers } from './users';

export interface DemoOptions {
  gatewayUrl: string;
  admin: { email: string; password: string };
  log: (line: string) => void;
}

/**
 * The demo of `pnpm start` (DEMO=true, the default): the people of DEMO_ACCOUNTS. Idempotent:
 * a second start over the same data finds what the first made.
 */
export async function runDemo(opts: DemoOptions): Promise<void> {
  const admin = new DemoClient(opts.gatewayUrl, opts.admin);
  await ensureDemoUsers(admin);
}
