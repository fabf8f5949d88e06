import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The project whose files take turns on one shared stack (apps/console/vitest.e2e.config.ts). */
const TURN_TAKING_PROJECT = 'console-browser';
/** How far into the run the first turn-taking file starts: the stack builds the demo's history meanwhile. */
const FIRST_AT = 0.25;
/** How far into the run the last one starts: the run ends on short files, not on a browser file. */
const LAST_AT = 0.8;

/**
 * Vitest's order (files that failed last time first, then the longest, then the largest), with
 * the browser files spread evenly among the others instead of in one block: they take turns on one
 * stack (apps/console/e2e/support/browser-turn.ts), so two of them next to each other in the queue
 * would leave a worker waiting for the other's turn to end. Between two of them the pool's workers
 * run a share of the other files, about as long as a browser file.
 */
export default class SpreadTurnsSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return spreadTurnTaking(await super.sort(files), (f) => f.project.name === TURN_TAKING_PROJECT);
  }
}

/** `sorted` with the items `takesTurns` picks placed evenly from FIRST_AT to LAST_AT of the others, in their order. */
export function spreadTurnTaking<T>(sorted: readonly T[], takesTurns: (item: T) => boolean): T[] {
  const turns = sorted.filter(takesTurns);
  const others = sorted.filter((f) => !takesTurns(f));
  if (turns.length === 0 || others.length === 0) return [...sorted];
  const first = Math.floor(others.length * FIRST_AT);
  const span = Math.floor(others.length * LAST_AT) - first;
  const step = turns.length > 1 ? span / (turns.length - 1) : 0;
  const at = turns.map((_, i) => first + Math.round(i * step));
  const out: T[] = [];
  let next = 0;
  others.forEach((item, i) => {
    while (next < turns.length && at[next] === i) out.push(turns[next++]!);
    out.push(item);
  });
  while (next < turns.length) out.push(turns[next++]!);
  return out;
}
