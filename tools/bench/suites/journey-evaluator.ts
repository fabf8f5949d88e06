import { buildRouteIndex, type RouteIndex } from '@corridor/journey/corridor/route-index';
import { turfDistanceToLineM } from '@corridor/journey/corridor/turf-reference';
import type { JourneyFix } from '@corridor/journey/detectors/flag-change';
import { evaluate, type JourneyPlan, type JourneyState } from '@corridor/journey/detectors/journey-evaluator';
import { seededRandom } from '@corridor/journey/detectors/seeded-random';
import { resolveThresholds } from '@corridor/journey/detectors/thresholds';
import { generateTrack, syntheticCorridor } from '@corridor/journey/detectors/track-generator';

/**
 * Journey evaluator throughput: 5,000 active journeys spread over four 1,000 km corridors
 * (5,001 vertices each), fixes fed round-robin as a consumer interleaves devices, on one core.
 * Also match() cost with and without the hint, and turf's pointToLineDistance as a baseline.
 */
const JOURNEYS = 5000;
const FIXES_PER_JOURNEY = 40;
const ROUTES = 4;

function time(fn: () => void): number {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}

function buildRoutes(): RouteIndex[] {
  return Array.from({ length: ROUTES }, (_, i) =>
    buildRouteIndex(syntheticCorridor({ id: `bench-${i}`, lengthKm: 1000, vertexSpacingM: 200, bearingDeg: 280 + 10 * i, seed: 100 + i })),
  );
}

interface Journey {
  route: RouteIndex;
  fixes: JourneyFix[];
  plan: JourneyPlan;
  state: JourneyState | undefined;
}

function buildJourneys(routes: RouteIndex[]): Journey[] {
  const rnd = seededRandom(2024);
  const startTime = Date.parse('2025-03-03T06:00:00Z');
  return Array.from({ length: JOURNEYS }, (_, j) => {
    const route = routes[j % ROUTES]!;
    const startAlongM = rnd.between(5_000, route.lengthM - 50_000);
    const track = generateTrack(route, [{ kind: 'drive', speedKmh: rnd.between(50, 85), durationS: FIXES_PER_JOURNEY * 15 }], {
      startTime: startTime + Math.round(rnd.between(0, 15_000)),
      startAlongM,
      seed: j + 1,
    });
    return { route, fixes: track.fixes, plan: { plannedDeparture: startTime - 3600_000 }, state: undefined };
  });
}

function evaluateAll(journeys: Journey[], jsonState: boolean): number {
  const thresholds = resolveThresholds();
  for (const j of journeys) j.state = evaluate(undefined, j.fixes[0]!, j.route, thresholds, j.plan).state;
  let count = 0;
  const ms = time(() => {
    for (let k = 1; k < FIXES_PER_JOURNEY; k++) {
      for (const j of journeys) {
        const state = jsonState ? (JSON.parse(JSON.stringify(j.state)) as JourneyState) : j.state;
        j.state = evaluate(state, j.fixes[k]!, j.route, thresholds, j.plan).state;
        count++;
      }
    }
  });
  return count / (ms / 1000);
}

function matchCosts(route: RouteIndex): Record<string, number> {
  const rnd = seededRandom(7);
  const n = 200_000;
  const pts = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    const [lon, lat] = route.pointAt((i * route.lengthM) / n, rnd.gaussian(150));
    pts[2 * i] = lon;
    pts[2 * i + 1] = lat;
  }
  let sink = 0;
  const withHint = (): void => {
    let hint = 0;
    for (let i = 0; i < n; i++) {
      const m = route.match(pts[2 * i]!, pts[2 * i + 1]!, hint);
      hint = m.segmentIndex;
      sink += m.distanceM;
    }
  };
  const withoutHint = (): void => {
    for (let i = 0; i < n; i++) sink += route.match(pts[2 * i]!, pts[2 * i + 1]!).distanceM;
  };
  withHint();
  withoutHint();
  const before = { ...route.stats };
  const hintMs = time(withHint);
  const hintAnswered = (route.stats.hint - before.hint) / n;
  const noHintMs = time(withoutHint);

  const few = 200;
  const turfMs = time(() => {
    for (let i = 0; i < few; i++) {
      const k = Math.floor((i * n) / few);
      sink += turfDistanceToLineM(route.coordinates, pts[2 * k]!, pts[2 * k + 1]!);
    }
  });
  const bruteMs = time(() => {
    for (let i = 0; i < few; i++) {
      const k = Math.floor((i * n) / few);
      sink += route.matchBruteForce(pts[2 * k]!, pts[2 * k + 1]!).distanceM;
    }
  });
  if (!Number.isFinite(sink)) throw new Error('unreachable: keeps the loops from being optimised away');
  const matchWithHintNs = (hintMs * 1e6) / n;
  const matchWithoutHintNs = (noHintMs * 1e6) / n;
  const turfNs = (turfMs * 1e6) / few;
  return {
    matchWithHintNs,
    matchWithoutHintNs,
    hintAnsweredShare: hintAnswered,
    bruteForceScanNs: (bruteMs * 1e6) / few,
    turfPointToLineDistanceNs: turfNs,
    turfOverMatchWithHint: turfNs / matchWithHintNs,
    turfOverMatchWithoutHint: turfNs / matchWithoutHintNs,
  };
}

export default async function run(): Promise<Record<string, number | string>> {
  const routes = buildRoutes();
  const buildMs = time(() => buildRouteIndex(syntheticCorridor({ lengthKm: 1000, vertexSpacingM: 200, seed: 99 })));
  const journeys = buildJourneys(routes);
  evaluateAll(journeys, false);
  const evaluationsPerSecond = evaluateAll(journeys, false);
  const evaluationsPerSecondJsonState = evaluateAll(journeys, true);
  const activeJourneys = journeys.filter((j) => j.state?.status === 'active').length;
  return {
    setup: `${JOURNEYS} journeys, ${ROUTES} routes of 1000 km, ${routes[0]!.coordinates.length} vertices each, one core`,
    activeJourneys,
    evaluationsPerSecond: Math.round(evaluationsPerSecond),
    evaluationsPerSecondJsonState: Math.round(evaluationsPerSecondJsonState),
    routeIndexBuildMs: Math.round(buildMs),
    ...matchCosts(routes[0]!),
  };
}
