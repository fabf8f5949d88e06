import { randomInt } from 'node:crypto';

/**
 * A queued command's id: an integer, as Traccar's QueuedCommand has it, unique without a table.
 * Milliseconds since 1970 times 1,000 plus a per-process counter started at a random point: two
 * commands of one process differ by the counter, two processes collide only when both queue in the
 * same millisecond with the same counter value (1 in 1,000 per such pair). The product stays below
 * 2^53 until the year 2255, so JSON readers keep it exact.
 */
let counter = randomInt(1000);
export function nextCommandId(now = Date.now()): number {
  counter = (counter + 1) % 1000;
  return now * 1000 + counter;
}
