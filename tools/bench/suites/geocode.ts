/**
 * Offline reverse geocoding (packages/geodata/src/reverse-geocoder.ts): lookups per second and the
 * time of one lookup (p50, p99, max) on one core, for three mixes of points:
 * - corridor: fixes along the two corridors' lines, offset up to 5 km (where trucks are);
 * - region: uniform over 28–42°E, 12°S–5°N (land, lakes, sea, borders: every branch);
 * - sea: the Indian Ocean off the coast (no country; the nearest coastal town).
 * Then what addresses cost where they are filled: a day of 10 s fixes (8,640 positions, the
 * positions history and the route report) and one live-feed batch of 2,000 positions (the gateway
 * adds each position's address before it broadcasts). The build of the index (first use) is timed too.
 * Single lookups are timed with performance.now() one by one (p99 includes the timer's own cost);
 * cpu_us_per_lookup is the process's CPU time over the loop (less sensitive to a busy machine than wall time).
 */
import { createGeocoder, GeocoderEnv, addressedPosition } from '@corridor/platform';
import { CORRIDORS, offsetMetres, type LonLat } from '@corridor/geodata';
import { createReverseGeocoder } from '@corridor/geodata/reverse-geocoder';
import { quantile, round } from '../stats';

const LOOKUPS = 200_000;

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function corridorPoints(n: number, rng: () => number): LonLat[] {
  const lines = CORRIDORS.map((c) => c.line);
  return Array.from({ length: n }, () => {
    const line = lines[Math.floor(rng() * lines.length)]!;
    const at = line[Math.floor(rng() * line.length)]!;
    return offsetMetres(at, rng() * 5000, rng() * 360);
  });
}
const boxPoints = (n: number, rng: () => number, [w, s, e, north]: [number, number, number, number]): LonLat[] =>
  Array.from({ length: n }, () => [w + rng() * (e - w), s + rng() * (north - s)] as LonLat);

function timeEach(
  points: LonLat[],
  f: (lat: number, lon: number) => unknown,
): { perSecond: number; cpuUs: number; p50us: number; p99us: number; maxUs: number } {
  for (let i = 0; i < 2000; i++) f(points[i]![1], points[i]![0]); // warm-up
  const start = performance.now();
  const cpu = process.cpuUsage();
  for (const [lon, lat] of points) f(lat, lon);
  const used = process.cpuUsage(cpu);
  const perSecond = (points.length / (performance.now() - start)) * 1000;
  // CPU time per lookup: what the lookup costs, less the time other processes held the core (a busy machine)
  const cpuUs = (used.user + used.system) / points.length;
  const each = new Float64Array(points.length);
  for (let i = 0; i < points.length; i++) {
    const t = performance.now();
    f(points[i]![1], points[i]![0]);
    each[i] = (performance.now() - t) * 1000;
  }
  const sorted = Array.from(each).sort((a, b) => a - b);
  return { perSecond, cpuUs, p50us: quantile(sorted, 0.5), p99us: quantile(sorted, 0.99), maxUs: sorted[sorted.length - 1]! };
}

export default async function geocode(): Promise<Record<string, number | string>> {
  const buildStart = performance.now();
  const geocoder = createReverseGeocoder();
  const buildMs = performance.now() - buildStart;
  const rng = seeded(22);
  const mixes: [string, LonLat[]][] = [
    ['corridor', corridorPoints(LOOKUPS, rng)],
    ['region', boxPoints(LOOKUPS, rng, [28, -12, 42, 5])],
    ['sea', boxPoints(LOOKUPS, rng, [40.5, -9, 45, -2])],
  ];
  const figures: Record<string, number | string> = { build_ms: round(buildMs), lookups_per_mix: LOOKUPS };
  for (const [name, points] of mixes) {
    const m = timeEach(points, (lat, lon) => geocoder.reverse(lat, lon));
    figures[`${name}_lookups_per_s`] = Math.round(m.perSecond);
    figures[`${name}_cpu_us_per_lookup`] = round(m.cpuUs);
    figures[`${name}_p50_us`] = round(m.p50us);
    figures[`${name}_p99_us`] = round(m.p99us);
    figures[`${name}_max_us`] = round(m.maxUs);
  }

  // where addresses are filled: a day's history (8,640 fixes) and a live-feed batch of 2,000 positions
  const service = createGeocoder(GeocoderEnv.parse({}));
  const day = corridorPoints(8640, seeded(7)).map(([lon, lat], i) => ({ id: i, latitude: lat, longitude: lon, speed: 40 }));
  const dayRuns: number[] = [];
  for (let r = 0; r < 7; r++) {
    const t = performance.now();
    day.map((p) => addressedPosition(service, p));
    dayRuns.push(performance.now() - t);
  }
  const batch = day.slice(0, 2000);
  const batchRuns: number[] = [];
  for (let r = 0; r < 15; r++) {
    const t = performance.now();
    batch.map((p) => addressedPosition(service, p));
    batchRuns.push(performance.now() - t);
  }
  figures.history_8640_fixes_ms_median = round(
    quantile(
      dayRuns.sort((a, b) => a - b),
      0.5,
    ),
  );
  figures.live_batch_2000_positions_ms_median = round(
    quantile(
      batchRuns.sort((a, b) => a - b),
      0.5,
    ),
  );
  figures.example = geocoder.reverse(-3.31, 38.47).address;
  return figures;
}
