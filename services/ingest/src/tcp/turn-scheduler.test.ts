import { describe, expect, it } from 'vitest';
import { TurnScheduler, type TurnWork } from './turn-scheduler';

/** Work that records the slice it ran in, handing over `frames` frames each time it runs. */
function work(name: string, log: string[], scheduler: TurnScheduler, frames = 8): TurnWork {
  return {
    runTurn: () => {
      log.push(`${scheduler.slices}:${name}`);
      return frames;
    },
  };
}

const allRun = (s: TurnScheduler): Promise<void> =>
  new Promise((resolve) => {
    const check = (): void => {
      if (s.waiting) setImmediate(check);
      else resolve();
    };
    setImmediate(check);
  });

describe('TurnScheduler', () => {
  it('starts work up to its frames per slice, urgent work first, and leaves the rest to later slices', async () => {
    const s = new TurnScheduler(16);
    const log: string[] = [];
    for (const n of ['p1', 'p2', 'p3', 'p4', 'p5']) s.schedule(work(n, log, s), false);
    s.schedule(work('login', log, s, 1), true);
    await allRun(s);
    expect(log).toEqual(['1:login', '1:p1', '1:p2', '2:p3', '2:p4', '3:p5']);
  });

  it('starts at least one position batch per slice however much urgent work there is', async () => {
    const s = new TurnScheduler(4);
    const log: string[] = [];
    s.schedule(work('p1', log, s), false);
    for (const n of ['h1', 'h2', 'h3', 'h4', 'h5']) s.schedule(work(n, log, s, 1), true);
    await allRun(s);
    expect(log).toEqual(['1:h1', '1:h2', '1:h3', '1:h4', '1:p1', '2:h5']);
  });
});
