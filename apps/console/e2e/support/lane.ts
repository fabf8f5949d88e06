import { inject } from 'vitest';
import type { StackLane } from './lane-stack';

/** The lane this file holds its turn on (browser-turn.ts sets it once granted). */
let held: number | undefined;

export function holdLane(lane: number | undefined): void {
  held = lane;
}

/** The stack of this file's lane: known once the file has its turn (from its hooks and tests on, not while collecting). */
export function stackLane(): StackLane {
  if (held === undefined)
    throw new Error('no browser lane yet: a browser file reads its stack in its hooks and tests, after it has its turn');
  return inject('browserLanes')[held]!;
}

/** Whether the run's stacks sign in through an OpenID provider the tests know (the same for every lane; readable while collecting). */
export const lanesKnowOpenId = (): boolean => inject('browserLanes').every((l) => l.openId !== null);
