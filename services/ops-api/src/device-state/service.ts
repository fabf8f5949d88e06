import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { DeviceSessionMessage, PositionMessage, Topics, type DeviceRegistryMessage, type EventMessage } from '@corridor/contracts';
import {
  CacheLocks,
  consumeValidated,
  counter,
  unavailable,
  type Bus,
  type Cache,
  type Clock,
  type Logger,
  type Orm,
  type Subscription,
} from '@corridor/platform';
import type { DeviceEventWriter } from '../events/event-writer';
import type { EventConfigReader } from './event-settings';
import { liveKeys, readLiveStates, saveLiveStates } from './live-state';
import { MotionMemory, type MotionToRecover, type StoredFixes } from './motion-memory';
import type { DeviceStateSettings } from './settings';
import { positionEvents, type EventConfig } from './position-events';
import { freshState, onPosition, onSession, onTimeout, type DeviceLiveState, type StatusChange, type Step } from './status';

const DEVICE_STATE_GROUP = 'device-state';
const DEVICE_SESSIONS_GROUP = 'device-state-sessions';
const sweeps = counter('ops_device_status_sweeps_total', 'Timeout sweeps of online devices', ['outcome']);
/** How long a batch waits for devices the sweep (or another instance) holds. */
const LOCK_WAIT_MS = 10_000;

export interface DeviceStateDeps {
  db: Orm;
  bus: Bus;
  cache: Cache;
  clock: Clock;
  logger: Logger;
  write: DeviceEventWriter;
  settings: DeviceStateSettings;
  /** The registry entries (devices.v1) of these devices with their live state, for the ones that exist. */
  registryEntries: (states: Map<number, DeviceLiveState>) => Promise<DeviceRegistryMessage[]>;
  /** Called with each batch of device-status.v1 messages once applied (the devices store the protocol a device first spoke). */
  onSessions?: (messages: DeviceSessionMessage[]) => Promise<void>;
  /** The event settings (speed limit, trip thresholds) of these devices, for the ones that exist. */
  eventConfigs: EventConfigReader;
  /** The stored positions, to read a motion window back (motion-memory.ts); without: the previous fix alone. */
  storedFixes?: StoredFixes;
}

interface Input {
  deviceId: number;
  uniqueId: string;
  apply: (s: DeviceLiveState) => Step;
}

const statusEvent = (deviceId: number, c: StatusChange): EventMessage => ({
  id: `${deviceId}-${c.type}-${c.time}`,
  type: c.type,
  eventTime: new Date(c.time).toISOString(),
  deviceId,
  positionId: null,
  journeyId: null,
  geofenceId: null,
  latitude: null,
  longitude: null,
  attributes: {},
});

/** A position: the status step, and the ignition / motion / overspeed events of a device that exists. */
function withPositionEvents(s: DeviceLiveState, p: PositionMessage, cfg: EventConfig | undefined, memory: MotionMemory): Step {
  const step = onPosition(s, p);
  if (!cfg) return step;
  const r = positionEvents(s.events, p, cfg, undefined, memory);
  return { ...step, state: { ...step.state, events: r.state }, events: r.events };
}

/**
 * The device state (Traccar's Device.status, lastUpdate, positionId): online while positions
 * (positions.v1) or connection messages (device-status.v1, from ingest) arrive, offline when the
 * last connection of a connection-based device closes, unknown after DEVICE_STATUS_TIMEOUT_S without
 * data (a sweep over the online devices). Every change is made under the device's cache lock, so
 * the two consumers and the sweep (on any instance) never overwrite each other; the state lives in
 * the cache (GET /devices reads it), status changes become deviceOnline / deviceOffline /
 * deviceUnknown events (ClickHouse, then events.v1) and go to PostgreSQL and devices.v1 at once,
 * while lastUpdate and positionId follow at most every DEVICE_STATE_PERSIST_S per device (a
 * position every few seconds must not become a PostgreSQL write and a registry message each).
 * Positions also give ignitionOn / ignitionOff, deviceMoving / deviceStopped and deviceOverspeed
 * events (position-events.ts), from the state kept beside the status under the same lock.
 * Idempotent under redelivery: old news never changes the status again, a position not later than
 * the last one processed gives no event, and event ids are the device, the type and the event time.
 */
export function deviceStateService(deps: DeviceStateDeps) {
  const { cache, clock, logger, settings } = deps;
  const locks = new CacheLocks(cache, liveKeys.lock);
  const token = randomUUID();
  const subs: Subscription[] = [];
  let timer: NodeJS.Timeout | undefined;
  let sweeping: Promise<void> | undefined;
  const motion = new MotionMemory();

  /** Reads back the motion windows of the batch's devices this instance does not hold (before their positions apply). */
  async function recoverMotion(before: Map<number, DeviceLiveState>, configs: Map<number, EventConfig>): Promise<void> {
    const candidates: MotionToRecover[] = [];
    for (const [deviceId, s] of before) {
      const m = s.events?.motionState;
      const t = configs.get(deviceId)?.trips;
      if (m?.logic === 'new' && t?.newLogic) candidates.push({ deviceId, state: m, t });
    }
    const due = motion.due(candidates);
    if (!due.length || !deps.storedFixes) return;
    try {
      const r = await motion.recover(due, deps.storedFixes);
      logger.info({ devices: due.length, ...r }, 'motion windows read back from the stored positions');
    } catch (err) {
      throw unavailable('analytics store', err);
    }
  }

  async function persist(states: [number, DeviceLiveState][]): Promise<void> {
    if (!states.length) return;
    const rows = states.map(
      ([id, s]) =>
        sql`(${id}::int, ${s.status}::text, ${s.lastUpdate === null ? null : new Date(s.lastUpdate).toISOString()}::timestamptz, ${s.positionId}::bigint)`,
    );
    try {
      await deps.db.execute(sql`UPDATE ops.devices AS d SET status = v.status, last_update = v.last_update, position_id = v.position_id
        FROM (VALUES ${sql.join(rows, sql`, `)}) AS v(id, status, last_update, position_id) WHERE d.id = v.id AND d.status <> 'pending'`);
    } catch (err) {
      throw unavailable('PostgreSQL', err);
    }
    const entries = await deps.registryEntries(new Map(states));
    if (!entries.length) return;
    await deps.bus
      .publish(
        Topics.devices,
        entries.map((e) => ({ key: String(e.id), value: e })),
      )
      .catch((err: unknown) => {
        throw unavailable('event bus', err);
      });
  }

  /** Applies inputs (in order) to the states of their devices, which the caller has locked; `prepare` first sees the states read. */
  async function applyLocked(inputs: Input[], prepare?: (before: Map<number, DeviceLiveState>) => Promise<void>): Promise<void> {
    const ids = [...new Set(inputs.map((i) => i.deviceId))];
    const before = await readLiveStates(cache, ids);
    await prepare?.(before);
    const next = new Map<number, DeviceLiveState>();
    const changed = new Set<number>();
    const events: EventMessage[] = [];
    for (const input of inputs) {
      const s = next.get(input.deviceId) ?? before.get(input.deviceId) ?? freshState(input.uniqueId);
      const r = input.apply(s);
      next.set(input.deviceId, r.state);
      if (r.change) {
        changed.add(input.deviceId);
        events.push(statusEvent(input.deviceId, r.change));
      }
      if (r.events) events.push(...r.events);
    }
    const now = clock.now().getTime();
    const due: [number, DeviceLiveState][] = [];
    for (const [id, s] of next) {
      if (!changed.has(id) && now - s.persistedAt < settings.persistMs) continue;
      const stamped = { ...s, persistedAt: now };
      next.set(id, stamped);
      due.push([id, stamped]);
    }
    await deps.write(events);
    await persist(due);
    await saveLiveStates(cache, next);
    if (events.length) logger.debug({ events: events.map((e) => `${e.deviceId}:${e.type}`) }, 'device status changed');
  }

  async function apply(inputs: Input[], prepare?: (before: Map<number, DeviceLiveState>) => Promise<void>): Promise<void> {
    if (!inputs.length) return;
    const ids = [...new Set(inputs.map((i) => i.deviceId))];
    await locks.lockAll(ids, LOCK_WAIT_MS);
    try {
      await applyLocked(inputs, prepare);
    } finally {
      await locks.unlock(ids).catch(() => undefined);
    }
  }

  /** One timeout sweep (by one instance per round): online devices silent past the timeout become unknown. */
  async function sweep(): Promise<number> {
    const now = clock.now().getTime();
    const round = Math.max(1, Math.floor(settings.sweepMs / 1000));
    if (!(await cache.setIfAbsent(liveKeys.sweep(), token, round).catch(() => false))) return 0;
    const online = await cache.hgetall(liveKeys.online());
    const due = Object.entries(online)
      .filter(([, last]) => Number(last) + settings.timeoutMs <= now)
      .map(([id]) => Number(id))
      .slice(0, 1000);
    const held: number[] = [];
    for (const id of due) if (await locks.tryLock(id)) held.push(id);
    try {
      const states = await readLiveStates(cache, held);
      const gone = held.filter((id) => !states.has(id));
      if (gone.length) await cache.hdel(liveKeys.online(), ...gone.map(String));
      await applyLocked(
        [...states].map(([id, s]) => ({ deviceId: id, uniqueId: s.uniqueId, apply: (st) => onTimeout(st, now, settings.timeoutMs) })),
      );
      for (const id of held) motion.forget(id); // silent past the timeout: read back if it reports again
    } finally {
      await locks.unlock(held).catch(() => undefined);
    }
    return held.length;
  }

  return {
    apply,
    sweep,
    /**
     * After the cache lost the states (a restart on the embedded cache, a flushed Redis): devices
     * PostgreSQL says are online get their state back, so the sweep times them out if they stay silent.
     */
    async seed(): Promise<number> {
      const rows = (await deps.db.execute(
        sql`SELECT id, unique_id, last_update, position_id FROM ops.devices WHERE status = 'online'`,
      )) as unknown as {
        rows?: { id: number; unique_id: string; last_update: string | Date | null; position_id: string | number | null }[];
      };
      const list = rows.rows ?? (rows as unknown as NonNullable<typeof rows.rows>);
      const known = await readLiveStates(
        cache,
        list.map((r) => Number(r.id)),
      );
      const missing = new Map<number, DeviceLiveState>();
      for (const r of list) {
        if (known.has(Number(r.id))) continue;
        const last = r.last_update === null ? clock.now().getTime() : new Date(r.last_update).getTime();
        missing.set(Number(r.id), {
          ...freshState(r.unique_id),
          status: 'online',
          statusTime: last,
          lastUpdate: last,
          positionId: r.position_id === null ? null : Number(r.position_id),
          persistedAt: last,
        });
      }
      await saveLiveStates(cache, missing);
      return missing.size;
    },
    async start(): Promise<void> {
      const seeded = await this.seed();
      if (seeded) logger.info({ devices: seeded }, 'device states restored from PostgreSQL');
      const [positions, sessions] = await Promise.all([
        consumeValidated({
          bus: deps.bus,
          logger,
          groupId: DEVICE_STATE_GROUP,
          topic: Topics.positions,
          schema: PositionMessage,
          fromBeginning: false,
          handle: async (ps) => {
            const configs = await deps.eventConfigs([...new Set(ps.map((p) => p.deviceId))]);
            await apply(
              ps.map((p) => ({
                deviceId: p.deviceId,
                uniqueId: p.uniqueId,
                apply: (s) => withPositionEvents(s, p, configs.get(p.deviceId), motion),
              })),
              (before) => recoverMotion(before, configs),
            );
          },
        }),
        consumeValidated({
          bus: deps.bus,
          logger,
          groupId: DEVICE_SESSIONS_GROUP,
          topic: Topics.deviceStatus,
          schema: DeviceSessionMessage,
          fromBeginning: false,
          handle: async (ms) => {
            await apply(ms.map((m) => ({ deviceId: m.deviceId, uniqueId: m.uniqueId, apply: (s) => onSession(s, m) })));
            await deps.onSessions?.(ms);
          },
        }),
      ]);
      subs.push(positions, sessions);
      timer = setInterval(() => {
        if (sweeping) return; // the last sweep still runs
        sweeping = sweep()
          .then(
            (n) => void sweeps.inc({ outcome: n ? 'changed' : 'idle' }),
            (err: unknown) => {
              sweeps.inc({ outcome: 'failed' });
              logger.warn({ err: (err as Error).message }, 'device status sweep failed; the next one retries');
            },
          )
          .finally(() => (sweeping = undefined));
      }, settings.sweepMs);
      timer.unref();
    },
    async stop(): Promise<void> {
      clearInterval(timer);
      await sweeping?.catch(() => undefined);
      await Promise.allSettled(subs.map((s) => s.stop()));
      subs.length = 0;
      motion.clear();
    },
  };
}
export type DeviceStateService = ReturnType<typeof deviceStateService>;
