import { PositionMessage, Topics } from '@corridor/contracts';
import { consumeValidated, createLogger, type MemoryBus } from '@corridor/platform';

/**
 * `groups` consumer groups (consumeValidated on PositionMessage, handlers that do nothing, as the
 * stack's readers of positions.v1) read the `count` positions on `bus`; the CPU µs of this thread
 * per position while they do. `consume` is consumeValidated, or the one of a revision before.
 */
export async function readAllPositions(bus: MemoryBus, groups: number, count: number, consume = consumeValidated): Promise<number> {
  const logger = createLogger('bench', 'silent');
  let handled = 0;
  const start = process.threadCpuUsage();
  const subs = await Promise.all(
    Array.from({ length: groups }, (_, g) =>
      consume({
        bus,
        logger,
        groupId: `g${g}`,
        topic: Topics.positions,
        schema: PositionMessage,
        handle: async (ms) => void (handled += ms.length),
      }),
    ),
  );
  while (handled < count * groups) await new Promise((r) => setImmediate(r));
  const used = process.threadCpuUsage(start);
  await Promise.all(subs.map((s) => s.stop()));
  return (used.user + used.system) / count;
}
