import { afterAll, beforeAll, inject } from 'vitest';
import { takeTurn } from '@corridor/platform/testing/turns';

/**
 * Each browser file runs in its turn (global-setup.ts starts the turns: @corridor/platform/testing/turns): before the file's own set-up, and given
 * back after its browsers closed (a setup file's afterAll runs after the file's own).
 */
let turn: Awaited<ReturnType<typeof takeTurn>> | undefined;

// a ceiling for the wait, not a timing: at most one other browser file runs before this one
beforeAll(async () => {
  const asked = performance.now();
  turn = await takeTurn(inject('browserTurns'));
  // what the run's layout costs (tools/test-sequencer.ts): a worker that waits here runs nothing else
  const waited = (performance.now() - asked) / 1000;
  if (waited >= 1) console.log(`[browser turn] this file waited ${waited.toFixed(1)} s for its turn on the stack`);
}, 900_000);

afterAll(async () => {
  await turn?.release();
});
