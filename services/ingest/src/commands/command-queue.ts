import { CommandMessage } from '@corridor/contracts';
import type { Cache } from '@corridor/platform';

/** How long a sent command's id is remembered, so a redelivered or re-queued copy is never sent twice. */
const SENT_TTL_S = 7 * 24 * 3600;
const queueKey = (uniqueId: string): string => `ingest:commands:${uniqueId}`;
const sentKey = (commandId: string): string => `ingest:command-sent:${commandId}`;

/**
 * Commands waiting for their device, in the shared cache (a hash per device: command id → JSON),
 * so whichever ingest instance the device next connects to sends them. Sending is at most once:
 * an instance claims the command id before writing it to the device.
 */
export class CommandQueue {
  constructor(private readonly cache: Cache) {}

  /** Queues the command unless it was already sent. */
  async add(cmd: CommandMessage): Promise<void> {
    if (await this.cache.get(sentKey(cmd.id))) return;
    await this.cache.hset(queueKey(cmd.uniqueId), { [cmd.id]: JSON.stringify(cmd) });
  }

  /** Queued commands of a device, oldest request first; unreadable entries are removed. */
  async pending(uniqueId: string): Promise<CommandMessage[]> {
    const all = await this.cache.hgetall(queueKey(uniqueId));
    const out: CommandMessage[] = [];
    const bad: string[] = [];
    for (const [id, json] of Object.entries(all)) {
      let parsed: ReturnType<typeof CommandMessage.safeParse>;
      try {
        parsed = CommandMessage.safeParse(JSON.parse(json));
      } catch {
        bad.push(id);
        continue;
      }
      if (parsed.success) out.push(parsed.data);
      else bad.push(id);
    }
    if (bad.length) await this.cache.hdel(queueKey(uniqueId), ...bad);
    return out.sort((a, b) => a.requestedAt.localeCompare(b.requestedAt) || a.id.localeCompare(b.id));
  }

  /** True when this caller may send the command (no one claimed it before). */
  claim(commandId: string): Promise<boolean> {
    return this.cache.setIfAbsent(sentKey(commandId), new Date().toISOString(), SENT_TTL_S);
  }

  /** Gives a claim back when the command could not be written after all. */
  async release(commandId: string): Promise<void> {
    await this.cache.del(sentKey(commandId));
  }

  async remove(uniqueId: string, commandId: string): Promise<void> {
    await this.cache.hdel(queueKey(uniqueId), commandId);
  }
}
