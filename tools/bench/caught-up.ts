import type { App } from '@corridor/platform';

/** Every consumer of every service has no lag left (from each service's /readyz?verbose). */
export async function caughtUp(apps: App[]): Promise<boolean> {
  for (const app of apps) {
    const body = (await app.inject({ method: 'GET', url: '/readyz?verbose' })).json<{
      details?: { bus?: { consumers?: { lag: Record<string, number> | 'unknown' }[] } };
    }>();
    for (const c of body.details?.bus?.consumers ?? []) {
      if (c.lag === 'unknown' || Object.values(c.lag).some((n) => n > 0)) return false;
    }
  }
  return true;
}

/** Waits until caughtUp(apps), checking every 200 ms. */
export async function settle(apps: App[]): Promise<void> {
  while (!(await caughtUp(apps))) await new Promise((r) => setTimeout(r, 200));
}
