/**
 * Summarises V8 CPU profiles (`node --cpu-prof`, one file per thread): self time by function and
 * by source file or package, as text, so that a profile taken at saturation says where a fix's CPU
 * goes. `pnpm exec tsx tools/bench/profile-summary.ts <dir-or-file>... [--top N] [--window FROM-TO]`
 * (the window in µs on the monotonic clock, as `pnpm bench traccar` records each phase).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code lives: a package (node_modules), a workspace file, Node's own, or V8's pseudo-frames. */
export function placeOf(url: string, fn: string): string {
  if (!url) return fn.startsWith('(') ? fn : '(native)';
  const pkg = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return `npm:${pkg[1]}`;
  if (url.startsWith('node:')) return url;
  const ws = /\/((?:services|packages|tools|apps)\/.+)$/.exec(url);
  return ws ? ws[1]! : url;
}

/** Self time per node, of the samples between `from` and `to` (µs on the monotonic clock the profile's startTime uses). */
export function summarise(profile: Profile, top: number, window?: { from: number; to: number }): string {
  const selfUs = new Map<number, number>();
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    if (window && (at < window.from || at > window.to)) continue;
    selfUs.set(profile.samples[i]!, (selfUs.get(profile.samples[i]!) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
  const byFn = new Map<string, number>();
  const byPlace = new Map<string, number>();
  const idle = new Set(['(idle)', '(program)', '(garbage collector)']);
  let busy = 0;
  for (const n of profile.nodes) {
    const us = selfUs.get(n.id) ?? 0;
    if (!us) continue;
    const fn = n.callFrame.functionName || '(anonymous)';
    const place = placeOf(n.callFrame.url, fn);
    const key = `${fn} ${place}${n.callFrame.url ? `:${n.callFrame.lineNumber + 1}` : ''}`;
    byFn.set(key, (byFn.get(key) ?? 0) + us);
    byPlace.set(place, (byPlace.get(place) ?? 0) + us);
    if (fn !== '(idle)') busy += us;
  }
  const pct = (us: number): string => `${((100 * us) / Math.max(1, busy)).toFixed(1).padStart(5)} %`;
  const lines = [
    `${window ? `window ${((window.to - window.from) / 1e6).toFixed(1)} s of ` : ''}wall ${((profile.endTime - profile.startTime) / 1e6).toFixed(1)} s, sampled ${(total / 1e6).toFixed(1)} s, busy (not idle) ${(busy / 1e6).toFixed(1)} s; shares are of busy time`,
    '',
    `top ${top} places (package, file, or V8):`,
    ...[...byPlace]
      .filter(([k]) => k !== '(idle)')
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, v]) => `  ${pct(v)}  ${k}`),
    '',
    `top ${top} functions (self time):`,
    ...[...byFn]
      .filter(([k]) => !k.startsWith('(idle)'))
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, v]) => `  ${pct(v)}  ${k}`),
  ];
  void idle;
  return lines.join('\n');
}

function files(paths: string[]): string[] {
  return paths.flatMap((p) =>
    statSync(p).isDirectory()
      ? readdirSync(p)
          .filter((f) => f.endsWith('.cpuprofile'))
          .map((f) => join(p, f))
      : [p],
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const topAt = args.indexOf('--top');
  const top = topAt >= 0 ? Number(args[topAt + 1]) : 25;
  const windowAt = args.indexOf('--window');
  const [from, to] = windowAt >= 0 ? args[windowAt + 1]!.split('-').map(Number) : [];
  const window = from !== undefined && to !== undefined ? { from, to } : undefined;
  const skip = new Set([topAt, topAt + 1, windowAt, windowAt + 1].filter((i) => i >= 0));
  for (const f of files(args.filter((_, i) => !skip.has(i)))) {
    process.stdout.write(`== ${f}\n${summarise(JSON.parse(readFileSync(f, 'utf8')) as Profile, top, window)}\n\n`);
  }
}
