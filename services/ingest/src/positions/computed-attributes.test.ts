import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { PositionMessage, positionId } from '@corridor/contracts';
import { cacheKeys, MemoryCache } from '@corridor/platform';
import type { ComputedAttributeDefinition } from '@corridor/platform/computed-attributes';
import { ComputedAttributes, computedAttributeErrors } from './computed-attributes';

const logger = pino({ level: 'silent' });
const position = PositionMessage.parse({
  id: positionId(7, 1767225600000),
  deviceId: 7,
  uniqueId: '356307042441013',
  protocol: 'osmand',
  fixTime: '2026-01-01T00:00:00Z',
  serverTime: '2026-01-01T00:00:01Z',
  valid: true,
  latitude: -1.2921,
  longitude: 36.8219,
  speed: 50,
  course: 180,
  attributes: { fuel: 40 },
});
const def = (
  over: Partial<ComputedAttributeDefinition> & Pick<ComputedAttributeDefinition, 'id' | 'attribute' | 'expression'>,
): ComputedAttributeDefinition => ({ type: 'Number', priority: 0, companyId: null, ...over });

async function setup(defs: ComputedAttributeDefinition[]) {
  const cache = new MemoryCache();
  await cache.set(cacheKeys.computedAttributes(), JSON.stringify(defs));
  let now = 0;
  const computed = new ComputedAttributes({ cache, logger, reloadMs: 5000, now: () => now });
  await computed.refresh();
  return { cache, computed, advance: (ms: number) => (now += ms) };
}
const errors = async (stage: string) => (await computedAttributeErrors.get()).values.find((v) => v.labels.stage === stage)?.value ?? 0;

describe('ComputedAttributes', () => {
  it('applies higher priority first, each seeing the results before it', async () => {
    const { computed } = await setup([
      def({ id: 1, attribute: 'speedKmh', expression: 'speed * 1.852', priority: 10 }),
      def({ id: 2, attribute: 'fast', expression: 'speedKmh > 90', type: 'Boolean', priority: 5 }),
      def({ id: 3, attribute: 'label', expression: 'fast ? "fast" : "slow"', type: 'String', priority: 0 }),
      def({ id: 4, attribute: 'label', expression: '"overwritten first"', type: 'String', priority: 1 }),
    ]);
    const out = computed.apply(position, null);
    expect(out.attributes.speedKmh).toBeCloseTo(92.6, 6);
    expect(out.attributes).toMatchObject({ fuel: 40, fast: true, label: 'fast' });
    expect(position.attributes).toEqual({ fuel: 40 });
    expect(PositionMessage.safeParse(out).success).toBe(true);
  });

  it('casts results to the declared type', async () => {
    const { computed } = await setup([
      def({ id: 1, attribute: 'asText', expression: 'fuel / 8', type: 'String' }),
      def({ id: 2, attribute: 'asNumber', expression: 'valid', type: 'Number' }),
      def({ id: 3, attribute: 'asBool', expression: '"true"', type: 'Boolean' }),
      def({ id: 4, attribute: 'notNumber', expression: '"abc"', type: 'Number' }),
    ]);
    const out = computed.apply(position, null);
    expect(out.attributes).toMatchObject({ asText: '5', asNumber: 1, asBool: true });
    expect(out.attributes).not.toHaveProperty('notNumber');
  });

  it('counts a failing expression and keeps the position and the other attributes', async () => {
    const { computed } = await setup([
      def({ id: 1, attribute: 'bad', expression: 'attributes.fuel.deep.deeper', priority: 3 }),
      def({ id: 2, attribute: 'list', expression: '[1, 2]', priority: 2 }),
      def({ id: 3, attribute: 'half', expression: 'fuel / 2', priority: 1 }),
    ]);
    const before = await errors('evaluate');
    const out = computed.apply(position, null);
    expect(await errors('evaluate')).toBe(before + 1);
    expect(out).toEqual({ ...position, attributes: { fuel: 40, half: 20 } });
  });

  it("applies company definitions only to that company's devices", async () => {
    const { computed } = await setup([
      def({ id: 1, attribute: 'mine', expression: '1', companyId: 5 }),
      def({ id: 2, attribute: 'all', expression: '2' }),
    ]);
    expect(computed.apply(position, 5).attributes).toMatchObject({ mine: 1, all: 2 });
    expect(computed.apply(position, 6).attributes).not.toHaveProperty('mine');
    expect(computed.apply(position, null).attributes).toEqual({ fuel: 40, all: 2 });
  });

  it('applies a definition with links only to the devices linked to it (Traccar), none when it has no links', async () => {
    const { computed } = await setup([
      def({ id: 1, attribute: 'linked', expression: '1', deviceIds: [3, 7] }),
      def({ id: 2, attribute: 'elsewhere', expression: '2', deviceIds: [8] }),
      def({ id: 3, attribute: 'nowhere', expression: '3', deviceIds: [] }),
    ]);
    expect(computed.apply(position, null).attributes).toEqual({ fuel: 40, linked: 1 });
    expect(computed.apply({ ...position, deviceId: 8 }, null).attributes).toEqual({ fuel: 40, elsewhere: 2 });
  });

  it('picks up a changed definition list after the reload period, not before', async () => {
    const { cache, computed, advance } = await setup([def({ id: 1, attribute: 'x', expression: '1' })]);
    await cache.set(cacheKeys.computedAttributes(), JSON.stringify([def({ id: 1, attribute: 'x', expression: '2' })]));
    advance(1000);
    await computed.refresh();
    expect(computed.apply(position, null).attributes.x).toBe(1);
    advance(5000);
    await computed.refresh();
    expect(computed.apply(position, null).attributes.x).toBe(2);
    await cache.del(cacheKeys.computedAttributes());
    advance(5000);
    await computed.refresh();
    expect(computed.size).toBe(0);
  });

  it('keeps the current definitions when the cache holds something malformed, and skips one that does not compile', async () => {
    const { cache, computed, advance } = await setup([
      def({ id: 1, attribute: 'x', expression: '1' }),
      def({ id: 2, attribute: 'y', expression: 'constructor' }),
    ]);
    expect(computed.size).toBe(1);
    await cache.set(cacheKeys.computedAttributes(), '{not json');
    advance(5000);
    await computed.refresh();
    expect(computed.apply(position, null).attributes.x).toBe(1);
  });
});
