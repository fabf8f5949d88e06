import { routesEndpoints, type Route, type RouteInput, type RouteStopArea } from '@corridor/contracts';
import type { CorridorId } from '@corridor/geodata';
import { corridorSeed } from '@corridor/journey/seed/corridor-seeds';
import type { Direction } from '../../sim/truck';
import type { DemoClient } from './client';

const list = routesEndpoints.find((e) => e.id === 'routes.list')!;
const create = routesEndpoints.find((e) => e.id === 'routes.create')!;

/** A demo truck's silence opens its signal-loss flag after this long; the demo stack's device status timeout follows it (config.ts statusTimeoutS). */
export const DEMO_SIGNAL_LOSS_MINUTES = 1;

/**
 * Deviation thresholds short enough that every kind of flag shows within minutes of a start
 * (the service defaults are minutes to hours, as on a real road).
 */
const DEMO_THRESHOLDS = {
  offCorridorMinSeconds: 20,
  offCorridorMinFixes: 3,
  unauthorizedStopMinutes: 1,
  overspeedSeconds: 15,
  signalLossMinutes: DEMO_SIGNAL_LOSS_MINUTES,
  signalLossEscalateMinutes: 30,
};

const flip = (a: RouteStopArea): RouteStopArea =>
  a.kind === 'origin' ? { ...a, kind: 'destination' } : a.kind === 'destination' ? { ...a, kind: 'origin' } : a;

/** The seeded corridor as a demo route in one direction (reverse: the line, limits and ends turned round). */
function demoRoute(corridor: CorridorId, direction: Direction): RouteInput {
  const seed = corridorSeed(corridor);
  const base = {
    ...seed,
    code: `demo-${corridor}-${direction}`,
    thresholds: DEMO_THRESHOLDS,
    attributes: { ...seed.attributes, demo: true },
  };
  if (direction === 'forward') return { ...base, name: `${seed.name} (demo)` };
  return {
    ...base,
    name: `${seed.name}, return (demo)`,
    line: [...(seed.line ?? [])].reverse(),
    speedLimitsKmh: [...seed.speedLimitsKmh].reverse(),
    stopAreas: [...seed.stopAreas].reverse().map(flip),
  };
}

/** The four demo routes (both corridors, both directions), created when missing; by `${corridor}-${direction}`. */
export async function ensureDemoRoutes(dispatcher: DemoClient): Promise<Map<string, Route>> {
  const existing = await dispatcher.call<Route[]>(list, { query: { limit: 1000 } });
  const out = new Map<string, Route>();
  for (const corridor of ['northern', 'central'] as const) {
    for (const direction of ['forward', 'reverse'] as const) {
      const input = demoRoute(corridor, direction);
      const route = existing.find((r) => r.code === input.code) ?? (await dispatcher.call<Route>(create, { body: input }));
      out.set(`${corridor}-${direction}`, route);
    }
  }
  return out;
}
