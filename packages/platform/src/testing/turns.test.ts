import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { startTurns, takeTurn } from './turns';

describe('turns across workers', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('grants one turn at a time, in the order asked, each as soon as the one before is given back', async () => {
    const turns = await startTurns();
    close = turns.close;
    const order: string[] = [];
    const first = await takeTurn(turns.port);
    order.push('first');
    const second = takeTurn(turns.port).then((t) => (order.push('second'), t));
    const third = takeTurn(turns.port).then((t) => (order.push('third'), t));
    const marker = takeTurn(turns.port).then((t) => (order.push('marker'), t));
    // the server has every one of them queued, and granted none but the first
    await expect.poll(() => turns.queued()).toBe(4);
    expect(order).toEqual(['first']);
    await first.release();
    const s = await second;
    expect(order).toEqual(['first', 'second']);
    await s.release();
    await (await third).release();
    await (await marker).release();
    expect(order).toEqual(['first', 'second', 'third', 'marker']);
  });

  it('with two lanes, grants two turns at once, each on a lane no one else holds, and the next waits for the first lane given back', async () => {
    const turns = await startTurns(2);
    close = turns.close;
    const a = await takeTurn(turns.port);
    const b = await takeTurn(turns.port);
    expect([a.lane, b.lane].sort()).toEqual([0, 1]);
    let third: Awaited<ReturnType<typeof takeTurn>> | undefined;
    const thirdAsked = takeTurn(turns.port).then((t) => (third = t));
    // the marker: asked after the third, granted after it
    let marker: Awaited<ReturnType<typeof takeTurn>> | undefined;
    const markerAsked = takeTurn(turns.port).then((t) => (marker = t));
    await expect.poll(() => turns.queued()).toBe(4);
    expect(turns.holding()).toBe(2);
    expect(third).toBeUndefined();
    await b.release();
    await thirdAsked;
    // the third gets the lane the second gave back, the first keeps its own
    expect(third!.lane).toBe(b.lane);
    expect(marker).toBeUndefined();
    await a.release();
    await markerAsked;
    expect(marker!.lane).toBe(a.lane);
    await third!.release();
    await marker!.release();
    await expect.poll(() => turns.holding()).toBe(0);
  });

  it('a file that gives up while waiting is never granted a lane, and the one after it is', async () => {
    const turns = await startTurns(1);
    close = turns.close;
    const held = await takeTurn(turns.port);
    // a worker that asks and dies while it waits
    const child = spawn(
      process.execPath,
      ['-e', `require('node:net').connect(${turns.port}, '127.0.0.1').on('connect', () => process.send('asked'));`],
      { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] },
    );
    await once(child, 'message');
    await expect.poll(() => turns.queued()).toBe(2);
    child.kill('SIGKILL');
    await expect.poll(() => turns.queued()).toBe(1);
    const next = takeTurn(turns.port);
    await held.release();
    const t = await next;
    expect(t.lane).toBe(0);
    await t.release();
  });

  it('refuses a number of lanes it cannot number in one byte', async () => {
    await expect(startTurns(0)).rejects.toThrow(/1 to 255 lanes/);
    await expect(startTurns(256)).rejects.toThrow(/1 to 255 lanes/);
  });

  it('gives the turn on when the process holding it dies without giving it back', async () => {
    const turns = await startTurns();
    close = turns.close;
    // a worker that takes the turn and is killed while it holds it
    const child = spawn(
      process.execPath,
      ['-e', `require('node:net').connect(${turns.port}, '127.0.0.1').on('data', () => process.send('granted'));`],
      { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] },
    );
    await once(child, 'message');
    let granted = false;
    const next = takeTurn(turns.port).then((t) => ((granted = true), t));
    await expect.poll(() => turns.queued()).toBe(2);
    expect(granted).toBe(false);
    child.kill('SIGKILL');
    await (await next).release();
    expect(granted).toBe(true);
  });

  it('refuses a waiting file clearly when the server goes away', async () => {
    const turns = await startTurns();
    const held = await takeTurn(turns.port);
    const waiting = takeTurn(turns.port);
    await turns.close();
    await expect(waiting).rejects.toThrow(/closed the connection before granting a turn/);
    await held.release();
  });
});
