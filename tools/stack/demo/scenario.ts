import type { TruckPlan } from '../../sim/truck';
import { DEMO_ACCOUNTS } from './accounts';
import { DemoClient } from './client';
import { ensureDemoJourneys } from './journeys';
import { ensureDemoPaperwork } from './paperwork';
import { ensureDemoRoutes } from './routes';
import { ensureDemoUsers } from './users';

export interface DemoOptions {
  gatewayUrl: string;
  admin: { email: string; password: string };
  /** The simulated trucks (journeys are declared for them). */
  plans: readonly TruckPlan[];
  log: (line: string) => void;
}

export interface DemoResult {
  journeys: number;
  paperwork: boolean;
}

/**
 * The demo of `pnpm start` (DEMO=true, the default), made through the API as its people would:
 * the accounts of DEMO_ACCOUNTS; demo routes with short deviation thresholds and a journey for every
 * simulated truck (the simulator scripts the incidents, see demo/incidents.ts); Pwani Freight
 * Movers' cargo, certificates and shipments in their various states, some waiting for the officer.
 * Idempotent: a second start over the same data adds only what is missing.
 */
export async function runDemo(opts: DemoOptions): Promise<DemoResult> {
  const client = (who: { email: string; password: string }) => new DemoClient(opts.gatewayUrl, who);
  await ensureDemoUsers(client(opts.admin));
  const dispatcher = client(DEMO_ACCOUNTS.dispatcher);
  const routes = await ensureDemoRoutes(dispatcher);
  const journeys = await ensureDemoJourneys(dispatcher, opts.plans, routes);
  const paperwork = await ensureDemoPaperwork(client(DEMO_ACCOUNTS.company), client(DEMO_ACCOUNTS.officer));
  return { journeys, paperwork };
}
