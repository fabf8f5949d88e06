import { existsSync, readFileSync } from 'node:fs';
import { beforeAll } from 'vitest';
import { eventually } from '@corridor/platform/testing/eventually';
import { stackLane } from './lane';

/**
 * Each browser file starts once the demo's observatory history of its lane's stack is built: each
 * stack builds it in the background while the other projects' tests run, and writes a file when it is done.
 */
beforeAll(async () => {
  const marker = stackLane().observatoryHistory;
  if (!marker) return;
  const text = await eventually('the demo observatory history built', () => existsSync(marker) && readFileSync(marker, 'utf8'), {
    ceilingMs: 170_000,
    everyMs: 250,
  });
  if (text !== 'ok') throw new Error(`the demo's observatory history: ${text}`);
}, 180_000);
