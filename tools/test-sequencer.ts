import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The project whose files take turns on the browser lanes' stacks (apps/console/vitest.e2e.config.ts). */
const TURN_TAKING_PROJECT = 'console-browser';
/** How far into the others' estimated time the first turn-taking file starts: the stack builds the demo's history meanwhile. */
const FIRST_AT = 0.25;
/** How far into it the last one starts: the run ends on short files, not on a browser file. */
const LAST_AT = 0.8;
/**
 * A file's time (its tests and its import, in seconds) per byte of the file, for files vitest has
 * not timed on this machine yet (a clean clone: CI): the CI run of 2026-11-29 07:26 (/tmp/ci-j.log),
 * each project's files' summed time over their summed size. An estimate for spacing files, never a
 * limit: browser files 7.0 ms a byte, whole-system (*.e2e) files 2.2, the other platform files 0.56
 * (before their shared workers), component files 0.43.
 */
const SECONDS_PER_BYTE: Record<string, number> = {
  [TURN_TAKING_PROJECT]: 0.007,
  'platform-own-process': 0.0022,
  platform: 0.0004,
  console: 0.0003,
};
const DEFAULT_SECONDS_PER_BYTE = 0.0005;

/** Where a file runs: in a turn on a lane's stack, in a fork of its own, or in a worker it shares with the files before it. */
export type Placement = 'turn' | 'own-process' | 'shared';

/**
 * The run's layout. Vitest's own order (files that failed last time first, then the longest, then
 * the largest, project by project) is kept within each kind, and:
 * - the files that need a fork of their own come first (the whole-system files, the longest), then
 *   the files that share a worker (`isolate: false`), each project's in one block: a worker goes
 *   on to the next file of the same project without a new fork and its imports (vitest reuses a
 *   worker only when the next file in the queue is of the same project), and the run ends on short
 *   files instead of a long tail on one worker;
 * - the browser files are spread among the others by the others' estimated time, each followed by
 *   others worth about its own time: they take turns on the lanes' stacks (one file at a time on
 *   each; apps/console/e2e/support/browser-turn.ts), and a worker that picks a browser file while
 *   every lane is held waits and runs nothing else (never with as many lanes as workers).
 */
export default class RunLayoutSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return layOut(await super.sort(files), {
      placement: (f) => (f.project.name === TURN_TAKING_PROJECT ? 'turn' : f.project.config.isolate === false ? 'shared' : 'own-process'),
      group: (f) => f.project.name,
      seconds: (f) => this.estimate(f),
    });
  }

  /** What the file took last time on this machine (vitest's cache), else its size times its project's rate. */
  private estimate(f: TestSpecification): number {
    const key = `${f.project.name}:${relative(this.ctx.config.root, f.moduleId)}`;
    const past = this.ctx.cache.getFileTestResults(key)?.duration;
    if (past) return past / 1000;
    const size = this.ctx.cache.getFileStats(key)?.size ?? 0;
    return size * (SECONDS_PER_BYTE[f.project.name] ?? DEFAULT_SECONDS_PER_BYTE);
  }
}

export interface LayoutOf<T> {
  placement(item: T): Placement;
  /** The project: shared files of one group stay together. */
  group(item: T): string;
  /** The item's estimated time, in any unit (only ratios count). */
  seconds(item: T): number;
}

/** `sorted` laid out as RunLayoutSequencer says; each kind keeps its order from `sorted`. */
export function layOut<T>(sorted: readonly T[], of: LayoutOf<T>): T[] {
  const own = sorted.filter((f) => of.placement(f) === 'own-process');
  const shared = sorted.filter((f) => of.placement(f) === 'shared');
  const groups = [...new Set(shared.map((f) => of.group(f)))];
  const others = [...own, ...groups.flatMap((g) => shared.filter((f) => of.group(f) === g))];
  return spreadTurnTaking([...sorted.filter((f) => of.placement(f) === 'turn'), ...others], (f) => of.placement(f) === 'turn', of.seconds);
}

/**
 * `sorted` with the items `takesTurns` picks placed among the others, in both their orders: the
 * first once FIRST_AT of the others' time is done, the last at LAST_AT, and between two of them
 * others worth time in proportion to the first one's own (so a long browser file is followed by
 * more of the others than a short one). With every time equal (`seconds` left out), evenly by count.
 */
export function spreadTurnTaking<T>(sorted: readonly T[], takesTurns: (item: T) => boolean, seconds: (item: T) => number = () => 1): T[] {
  const turns = sorted.filter(takesTurns);
  const others = sorted.filter((f) => !takesTurns(f));
  if (turns.length === 0 || others.length === 0) return [...sorted];
  // the others' time done when each of them ends
  const ends: number[] = [];
  let sum = 0;
  for (const item of others) {
    sum += Math.max(0, seconds(item));
    ends.push(sum);
  }
  // where each turn-taking item goes, in the others' time: spaced by the time of the one before it
  const first = sum * FIRST_AT;
  const span = sum * LAST_AT - first;
  const gaps = turns.slice(0, -1).map((item) => Math.max(0, seconds(item)));
  const gapSum = gaps.reduce((a, b) => a + b, 0);
  const targets = [first];
  for (const gap of gaps) targets.push(targets.at(-1)! + (gapSum > 0 ? (span * gap) / gapSum : span / gaps.length));
  // each goes right before the other that would be running at its target, and never two in a row
  const out: T[] = [];
  let next = 0;
  others.forEach((item, i) => {
    if (next < turns.length && ends[i]! > targets[next]! + 1e-9) out.push(turns[next++]!);
    out.push(item);
  });
  while (next < turns.length) out.push(turns[next++]!);
  return out;
}
