import { afterAll, beforeAll, inject } from 'vitest';
import { takeTurn } from '@corridor/platform/testing/turns';
import { holdLane } from './lane';

/**
 * Each browser file runs in its turn on one of the run's stacks (global-setup.ts starts a stack per
 * lane and the turns: @corridor/platform/testing/turns): taken before the file's own set-up, and
 * given back after its browsers closed (a setup file's afterAll runs after the file's own). The
 * file reads its lane's stack with `stackLane()` (lane.ts).
 */
let turn: Awaited<ReturnType<typeof takeTurn>> | undefined;

// a ceiling for the wait, not a timing: at most one other browser file runs on each lane before this one
beforeAll(async () => {
  const asked = performance.now();
  turn = await takeTurn(inject('browserTurns'));
  holdLane(turn.lane);
  // what the run's layout costs (tools/test-sequencer.ts): a worker that waits here runs nothing else
  const waited = (performance.now() - asked) / 1000;
  if (waited >= 1) console.log(`[browser turn] this file waited ${waited.toFixed(1)} s for its turn on a stack (lane ${turn.lane})`);
}, 900_000);

afterAll(async () => {
  holdLane(undefined);
  await turn?.release();
});
