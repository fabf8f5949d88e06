import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import {
  apiPosition,
  EventMessage,
  PositionMessage,
  Topics,
  WebNotificationMessage,
  type DeviceRegistryMessage,
  type Position,
  type SocketMessage,
} from '@corridor/contracts';
import {
  addressedEvent,
  addressedPosition,
  cacheKeys,
  consumeValidated,
  counter,
  gauge,
  toApiEvent,
  type Bus,
  type Cache,
  type Geocoder,
  type Identity,
  type Logger,
  type Subscription,
} from '@corridor/platform';
import type { PermissionsRepository } from '../permissions/repository';
import { DeviceDirectory } from './device-directory';
import { RecentIds } from './recent-ids';
import { canSee, viewerFor, type Viewer } from './visibility';

const connections = gauge('gateway_live_connections', 'Open live-feed WebSockets');
const frames = counter('gateway_live_frames_total', 'Frames sent on live-feed WebSockets', ['kind']);
const repeats = counter(
  'gateway_live_repeated_messages_total',
  'Bus messages dropped from the live feed because one with the same id was passed on already',
  ['kind'],
);

/** A client this far behind (bytes queued in the socket) is disconnected rather than buffered without end. */
const MAX_BUFFERED = 8 * 1024 * 1024;
const SNAPSHOT_CHUNK = 500;

interface Client {
  socket: WebSocket;
  viewer: Viewer;
  /** Opened with ?allEvents=true: also every event of its devices (allEvents frames). */
  allEvents: boolean;
  /** Frames produced before the initial snapshot went out; null once it has. */
  queued: string[] | null;
}

export interface LiveFeedDeps {
  bus: Bus;
  cache: Cache;
  permissions: PermissionsRepository;
  logger: Logger;
  keepaliveMs: number;
  /** The positions' and events' addresses (offline, microseconds each; none are looked up while no client listens). */
  geocoder: Geocoder;
}

/**
 * The live feed behind /api/socket, in Traccar's message shape. Each gateway instance reads
 * positions.v1, events.v1 and notifications.web.v1 from now on (its own consumer groups, so every
 * instance sees every message) and devices.v1 from the beginning, and fans each batch out to the
 * connected clients, filtered to the devices each may see. Events reach a client as in Traccar:
 * `events` frames carry what a notification rule's web channel sends to its user (with the
 * sentence in attributes.message); a client opened with ?allEvents=true (Corridor's console) also
 * gets every event of its devices in `allEvents` frames. A new client first gets the latest
 * position of each of its devices (from the cache), then the live frames, and `{}` as keepalive.
 */
export class LiveFeed {
  readonly directory: DeviceDirectory;
  private readonly clients = new Set<Client>();
  private subs: Subscription[] = [];
  private keepalive: NodeJS.Timeout | undefined;
  private readonly recentPositions = new RecentIds<number>();
  private readonly recentEvents = new RecentIds<string>();
  private readonly recentNotifications = new RecentIds<string>();

  constructor(private readonly deps: LiveFeedDeps) {
    this.directory = new DeviceDirectory(deps.bus, deps.logger.child({ component: 'device-directory' }), (devices) =>
      this.broadcast('devices', devices, (d) => ({ id: d.id, device: d })),
    );
  }

  async start(): Promise<void> {
    const { bus, logger } = this.deps;
    const instance = randomUUID();
    const [, positions, events, notifications] = await Promise.all([
      this.directory.start(),
      consumeValidated({
        bus,
        logger,
        groupId: `gateway-live-positions-${instance}`,
        topic: Topics.positions,
        schema: PositionMessage,
        fromBeginning: false,
        handle: async (msgs) => {
          // a fix ingest marked clockAhead (its device's clock runs ahead) is never a device's latest position: clients show positions frames as the current ones
          const fresh = this.firstTimes('positions', msgs, this.recentPositions).filter((p) => typeof p.attributes.clockAhead !== 'number');
          if (this.clients.size)
            this.broadcast(
              'positions',
              fresh.map((p) => apiPosition(addressedPosition(this.deps.geocoder, p))),
              (p) => ({ id: p.deviceId, device: this.directory.get(p.deviceId) }),
            );
        },
      }),
      consumeValidated({
        bus,
        logger,
        groupId: `gateway-live-events-${instance}`,
        topic: Topics.events,
        schema: EventMessage,
        fromBeginning: false,
        handle: async (msgs) => this.broadcastAllEvents(this.firstTimes('events', msgs, this.recentEvents)),
      }),
      consumeValidated({
        bus,
        logger,
        groupId: `gateway-live-notifications-${instance}`,
        topic: Topics.webNotifications,
        schema: WebNotificationMessage,
        fromBeginning: false,
        handle: async (msgs) =>
          this.notify(msgs.filter((m) => this.recentNotifications.firstTime(`${m.userId}:${m.ruleId}:${m.event.id}`))),
      }),
    ]);
    this.subs = [positions, events, notifications];
    this.keepalive = setInterval(() => {
      for (const c of this.clients) this.send(c, '{}', 'keepalive');
    }, this.deps.keepaliveMs);
    this.keepalive.unref();
  }

  /** A new WebSocket of an authenticated user (`allEvents`: it asked for every event of its devices). */
  async open(socket: WebSocket, identity: Identity, opts: { allEvents?: boolean } = {}): Promise<void> {
    const client: Client = {
      socket,
      viewer: await viewerFor(identity, this.deps.permissions),
      allEvents: opts.allEvents === true,
      queued: [],
    };
    // registered before the snapshot is read, so nothing published meanwhile is lost (it is queued)
    this.clients.add(client);
    connections.set(this.clients.size);
    socket.on('close', () => {
      this.clients.delete(client);
      connections.set(this.clients.size);
    });
    socket.on('error', (err) => this.deps.logger.debug({ err, userId: identity.userId }, 'live socket error'));
    socket.on('message', () => undefined); // clients have nothing to say (Traccar's `logs` switch is not supported)
    const positions = await this.latestPositions(client.viewer);
    const queued = client.queued ?? [];
    client.queued = null;
    this.send(client, JSON.stringify({ positions } satisfies SocketMessage), 'snapshot');
    for (const frame of queued) this.send(client, frame, 'queued');
  }

  get size(): number {
    return this.clients.size;
  }

  async stop(): Promise<void> {
    clearInterval(this.keepalive);
    for (const c of this.clients) c.socket.close(1001, 'server shutting down');
    this.clients.clear();
    connections.set(0);
    await Promise.allSettled([...this.subs.map((s) => s.stop()), this.directory.stop()]);
  }

  private async latestPositions(v: Viewer): Promise<Position[]> {
    const ids = new Set(this.directory.ids().filter((id) => canSee(v, id, this.directory.get(id))));
    for (const id of v.deviceIds) ids.add(id);
    const all = [...ids].sort((a, b) => a - b);
    const out: Position[] = [];
    for (let i = 0; i < all.length; i += SNAPSHOT_CHUNK) {
      const raw = await this.deps.cache.mget(all.slice(i, i + SNAPSHOT_CHUNK).map(cacheKeys.latestPosition));
      for (const r of raw) {
        if (!r) continue;
        try {
          const p = PositionMessage.safeParse(JSON.parse(r));
          if (p.success) out.push(apiPosition(addressedPosition(this.deps.geocoder, p.data)));
        } catch {
          // an unreadable cache entry is skipped; the next position replaces it
        }
      }
    }
    return out;
  }

  /** The messages whose id this feed has not passed on yet (the bus may carry a message twice). */
  private firstTimes<T extends { id: K }, K extends string | number>(kind: string, msgs: T[], recent: RecentIds<K>): T[] {
    const fresh = msgs.filter((m) => recent.firstTime(m.id));
    if (fresh.length < msgs.length) repeats.inc({ kind }, msgs.length - fresh.length);
    return fresh;
  }

  /** Every event, to the clients that asked for all events of their devices. */
  private broadcastAllEvents(events: EventMessage[]): void {
    if (!events.length || ![...this.clients].some((c) => c.allEvents)) return;
    const api = events.map((e) => addressedEvent(this.deps.geocoder, toApiEvent(e)));
    this.broadcast(
      'allEvents',
      api,
      (e) => ({ id: e.deviceId, device: this.directory.get(e.deviceId) }),
      (c) => c.allEvents,
    );
  }

  /** Rule-sent events, each to its user's clients (while the user may still see the device). */
  private notify(msgs: WebNotificationMessage[]): void {
    if (!msgs.length) return;
    const byUser = new Map<number, WebNotificationMessage['event'][]>();
    // each with the address of where it happened (offline geocoder), for the alert
    for (const m of msgs) byUser.set(m.userId, [...(byUser.get(m.userId) ?? []), addressedEvent(this.deps.geocoder, m.event)]);
    for (const c of this.clients) {
      const mine = byUser.get(c.viewer.userId)?.filter((e) => canSee(c.viewer, e.deviceId, this.directory.get(e.deviceId)));
      if (mine?.length) this.send(c, JSON.stringify({ events: mine } satisfies SocketMessage), 'events');
    }
  }

  private broadcast<T>(
    kind: 'positions' | 'allEvents' | 'devices',
    items: T[],
    deviceOf: (item: T) => { id: number; device: DeviceRegistryMessage | undefined },
    wants: (c: Client) => boolean = () => true,
  ): void {
    for (const c of this.clients) {
      if (!wants(c)) continue;
      const visible = items.filter((item) => {
        const d = deviceOf(item);
        return canSee(c.viewer, d.id, d.device);
      });
      if (visible.length) this.send(c, JSON.stringify({ [kind]: visible }), kind);
    }
  }

  private send(c: Client, frame: string, kind: string): void {
    if (c.queued) {
      if (kind !== 'keepalive') c.queued.push(frame);
      return;
    }
    if (c.socket.readyState !== c.socket.OPEN) return;
    if (c.socket.bufferedAmount > MAX_BUFFERED) {
      this.deps.logger.warn({ userId: c.viewer.userId }, 'live client too slow; disconnecting');
      c.socket.close(1013, 'too slow');
      return;
    }
    c.socket.send(frame);
    frames.inc({ kind });
  }
}
