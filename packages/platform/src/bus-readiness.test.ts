import { afterEach, describe, expect, it } from 'vitest';
import { MemoryBus } from './adapters/bus-memory';
import { createApp } from './app';
import { busReadiness, scopeBus } from './bus-readiness';
import { createLogger } from './logger';
import { registry } from './metrics';
import { eventually } from './testing/eventually';

/** The /readyz bus check and the consumer metrics, on the in-process bus (the Kafka side: bus.contract.test.ts). */
const logger = createLogger('test', 'fatal');
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function setup(maxLag = 10) {
  const shared = new MemoryBus(2, 10);
  const bus = scopeBus(shared);
  const app = createApp({ name: 'svc', logger, readiness: { bus: busReadiness(bus, { maxLag }) } });
  closers.push(
    () => app.close(),
    () => shared.close(),
  );
  await shared.ensureTopics([{ name: 'in', partitions: 2 }]);
  return { shared, bus, app };
}

describe('bus readiness', () => {
  it('is ready with running consumers, shows each one with its lag under ?verbose, and leaves out other services’ consumers', async () => {
    const { shared, bus, app } = await setup();
    const mine = await bus.subscribe({ groupId: 'mine', topics: ['in'], fromBeginning: true, handler: async () => undefined });
    // another service's consumer on the same bus (the one-process stack): not this service's concern
    const theirs = await shared.subscribe({ groupId: 'theirs', topics: ['in'], handler: async () => undefined });
    const res = await app.inject({ method: 'GET', url: '/readyz?verbose' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'ready',
      checks: { bus: 'ok' },
      details: {
        bus: {
          producer: { state: 'ok' },
          maxLag: 10,
          consumers: [{ groupId: 'mine', topics: ['in'], state: 'running', restarts: 0, lag: { in: 0 } }],
        },
      },
    });
    expect((await app.inject({ method: 'GET', url: '/readyz' })).json()).not.toHaveProperty('details');
    await theirs.stop();
    await mine.stop();
    expect(bus.subscriptions()).toEqual([]);
  });

  it('is not ready while a group lags past the threshold, and ready again once it caught up', async () => {
    const { shared, bus, app } = await setup(10);
    let release: () => void = () => undefined;
    const released = new Promise<void>((r) => (release = r));
    const sub = await bus.subscribe({ groupId: 'slow', topics: ['in'], fromBeginning: true, handler: () => released });
    await shared.publish(
      'in',
      Array.from({ length: 25 }, (_, i) => ({ key: `k${i}`, value: i })),
    );
    const lagging = await app.inject({ method: 'GET', url: '/readyz?verbose' });
    expect(lagging.statusCode).toBe(503);
    expect(lagging.json().checks.bus).toBe('consumer slow lags 25 messages on in (more than 10)');
    expect(lagging.json().details.bus.consumers[0].lag).toEqual({ in: 25 });
    // the metric shows the same lag
    expect(await registry.getSingleMetricAsString('consumer_lag')).toContain('consumer_lag{group="slow",topic="in"} 25');
    release();
    await eventually('the lag of topic in back to 0', async () => (await sub.lag()).in === 0);
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    await sub.stop();
  });

  it('is not ready while publishing fails, nor while the bus does not answer', async () => {
    const { shared, app } = await setup();
    shared.available = false;
    await expect(shared.publish('in', [{ key: 'a', value: 1 }])).rejects.toThrow();
    const res = await app.inject({ method: 'GET', url: '/readyz?verbose' });
    expect(res.statusCode).toBe(503);
    expect(res.json().checks.bus).toMatch(/^broker unreachable: bus unavailable; publishing fails since \S+: bus unavailable$/);
    expect(res.json().details.bus.producer).toMatchObject({ state: 'failing', lastError: 'bus unavailable' });
    shared.available = true;
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });

  it('counts running consumers per group in consumer_running', async () => {
    const { bus } = await setup();
    const a = await bus.subscribe({ groupId: 'counted', topics: ['in'], handler: async () => undefined });
    const b = await bus.subscribe({ groupId: 'counted', topics: ['in'], handler: async () => undefined });
    expect(await registry.getSingleMetricAsString('consumer_running')).toContain('consumer_running{group="counted"} 2');
    await a.stop();
    expect(await registry.getSingleMetricAsString('consumer_running')).toContain('consumer_running{group="counted"} 1');
    await b.stop();
    expect(await registry.getSingleMetricAsString('consumer_running')).not.toContain('group="counted"');
  });
});
