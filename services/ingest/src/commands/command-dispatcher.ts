import { randomUUID } from 'node:crypto';
import { CommandMessage, Topics, type EventMessage } from '@corridor/contracts';
import {
  consumeValidated,
  counter,
  retryWithBackoff,
  type Bus,
  type Cache,
  type Clock,
  type Logger,
  type Subscription,
} from '@corridor/platform';
import { CommandQueue } from './command-queue';
import type { ConnectionRegistry, DeviceLink } from './connection-registry';

/** The consumer group that keeps every command in the shared queue (one member per partition across instances). */
const COMMAND_QUEUE_GROUP = 'ingest-commands';
const commandsOutcome = counter('ingest_commands_total', 'Downlink commands by outcome (queued, sent, unsupported, encode_failed)', [
  'protocol',
  'outcome',
]);
const EVENT_PUBLISH_DEADLINE_MS = 60_000;

/**
 * The downlink path: commands.v1 → the device's open connection.
 * - The `ingest-commands` group stores every command in the cache queue (CommandQueue), so it
 *   survives until the device's next login on any instance.
 * - A per-instance group (every instance sees every command) sends at once when the device is
 *   connected to this instance.
 * - When a known device binds to a connection, whatever is queued for it is sent.
 * Each command is claimed before it is written (at most once), removed from the queue, and
 * announced with a 'queuedCommandSent' event, stored in ClickHouse's events (GET /api/events and the
 * events report read it there) and then published on events.v1 (the live feed). Before 2026-11-29 it
 * was only published, so the server had no record that a command left: /api/events never listed it.
 */
export class CommandDispatcher {
  private readonly queue: CommandQueue;
  private readonly subs: Subscription[] = [];
  private readonly delivering = new Map<string, Promise<void>>();
  private unlisten: (() => void) | undefined;
  private stopped = false;

  /** `record`: stores and publishes events (events/store-and-publish.ts). */
  constructor(
    private readonly deps: {
      bus: Bus;
      cache: Cache;
      connections: ConnectionRegistry;
      clock: Clock;
      logger: Logger;
      record: (events: EventMessage[]) => Promise<void>;
    },
  ) {
    this.queue = new CommandQueue(deps.cache);
  }

  async start(): Promise<void> {
    this.unlisten = this.deps.connections.onBound((uniqueId) => void this.deliver(uniqueId));
    const subs = await Promise.all([
      consumeValidated({
        bus: this.deps.bus,
        logger: this.deps.logger,
        groupId: COMMAND_QUEUE_GROUP,
        topic: Topics.commands,
        schema: CommandMessage,
        fromBeginning: true,
        handle: async (commands) => {
          for (const cmd of commands) {
            await this.queue.add(cmd);
            commandsOutcome.inc({ protocol: this.deps.connections.get(cmd.uniqueId)?.protocol.name ?? 'unknown', outcome: 'queued' });
          }
          for (const uniqueId of new Set(commands.map((c) => c.uniqueId))) void this.deliver(uniqueId);
        },
      }),
      consumeValidated({
        bus: this.deps.bus,
        logger: this.deps.logger,
        groupId: `ingest-commands-live-${randomUUID()}`,
        topic: Topics.commands,
        schema: CommandMessage,
        fromBeginning: false,
        handle: async (commands) => {
          const here = commands.filter((c) => this.deps.connections.get(c.uniqueId));
          for (const cmd of here) await this.queue.add(cmd);
          for (const uniqueId of new Set(here.map((c) => c.uniqueId))) void this.deliver(uniqueId);
        },
      }),
    ]);
    this.subs.push(...subs);
  }

  /** Sends the device's queued commands if it is connected here; one delivery per device at a time. */
  deliver(uniqueId: string): Promise<void> {
    const previous = this.delivering.get(uniqueId) ?? Promise.resolve();
    const next = previous
      .then(() => this.deliverNow(uniqueId))
      .catch((err: unknown) => this.deps.logger.warn({ err, uniqueId }, 'queued commands not delivered; they stay queued'));
    this.delivering.set(uniqueId, next);
    void next.finally(() => {
      if (this.delivering.get(uniqueId) === next) this.delivering.delete(uniqueId);
    });
    return next;
  }

  private async deliverNow(uniqueId: string): Promise<void> {
    if (this.stopped) return;
    const link = this.deps.connections.get(uniqueId);
    if (!link) return;
    for (const cmd of await this.queue.pending(uniqueId)) {
      if (!link.open || this.stopped) return;
      const bytes = this.encode(link, cmd);
      if (!bytes) {
        await this.queue.remove(uniqueId, cmd.id);
        continue;
      }
      if (!(await this.queue.claim(cmd.id))) {
        await this.queue.remove(uniqueId, cmd.id); // sent before (by this or another instance)
        continue;
      }
      if (!link.write(bytes)) {
        await this.queue.release(cmd.id); // not sent after all: keep it queued
        return;
      }
      await this.queue.remove(uniqueId, cmd.id);
      commandsOutcome.inc({ protocol: link.protocol.name, outcome: 'sent' });
      this.deps.logger.info({ uniqueId, commandId: cmd.id, type: cmd.type }, 'command sent to the device');
      await this.announce(cmd);
    }
  }

  private encode(link: DeviceLink, cmd: CommandMessage): Buffer | undefined {
    const protocol = link.protocol.name;
    if (!link.protocol.encodeCommand) {
      commandsOutcome.inc({ protocol, outcome: 'unsupported' });
      this.deps.logger.warn(
        { uniqueId: cmd.uniqueId, protocol, commandId: cmd.id },
        'the device protocol has no downlink commands; command dropped',
      );
      return undefined;
    }
    try {
      return link.protocol.encodeCommand({ type: cmd.type, attributes: cmd.attributes }, link.session);
    } catch (err) {
      commandsOutcome.inc({ protocol, outcome: 'encode_failed' });
      this.deps.logger.warn(
        { err: (err as Error).message, uniqueId: cmd.uniqueId, commandId: cmd.id, type: cmd.type },
        'command cannot be encoded; dropped',
      );
      return undefined;
    }
  }

  private async announce(cmd: CommandMessage): Promise<void> {
    const event: EventMessage = {
      id: `${cmd.deviceId}-queuedCommandSent-${cmd.id}`,
      type: 'queuedCommandSent',
      eventTime: this.deps.clock.now().toISOString(),
      deviceId: cmd.deviceId,
      positionId: null,
      journeyId: null,
      geofenceId: null,
      latitude: null,
      longitude: null,
      attributes: { commandId: queuedCommandId(cmd.id), type: cmd.type },
    };
    const deadline = Date.now() + EVENT_PUBLISH_DEADLINE_MS;
    // retried as a whole: the stored row is deduplicated by the event's id, so storing twice is harmless
    const done = await retryWithBackoff(() => this.deps.record([event]), {
      shouldRetry: () => true,
      cancelled: () => this.stopped || Date.now() > deadline,
    });
    if (!done?.ok) this.deps.logger.error({ commandId: cmd.id }, 'queuedCommandSent event not recorded (the command was sent)');
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unlisten?.();
    await Promise.allSettled(this.subs.map((s) => s.stop()));
    await Promise.allSettled([...this.delivering.values()]);
  }
}

/**
 * The id a client reads in attributes.commandId: ops-api's queued commands have integer ids (its
 * QueuedCommand.id), carried on commands.v1 as decimal text; a number again here so that a client
 * matches the event to the command it queued. Another producer's id stays text.
 */
function queuedCommandId(id: string): number | string {
  const n = Number(id);
  return /^[1-9]\d*$/.test(id) && Number.isSafeInteger(n) ? n : id;
}
