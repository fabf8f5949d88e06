import { randomUUID } from 'node:crypto';
import { booleanPointInPolygon, distance, lineString, point, pointToLineDistance, polygon } from '@turf/turf';
import { GeofenceDefinitionMessage, geofenceAppliesTo, Topics, type GeofenceKind, type GeofenceShape } from '@corridor/contracts';
import { consumeValidated, gauge, type Bus, type Logger, type Subscription } from '@corridor/platform';
import type { FenceLimit } from './position-events';

const fencesHeld = gauge('ops_speed_limit_fences', 'Geofences with a speedLimit that ops-api holds for overspeed events');

interface SpeedLimitFence {
  id: number;
  speedLimit: number;
  shape: GeofenceShape;
  kind: GeofenceKind;
  companyId: number | null;
  deviceIds: ReadonlySet<number>;
  groupIds: ReadonlySet<number>;
}

/** Who a device is, for which fences apply to it (contracts geofenceAppliesTo, the geofence service's rule). */
export interface FenceOwner {
  deviceId: number;
  /** its group and the group's parents, nearest first */
  groupChain: readonly number[];
}

/** Containment by turf (its mean Earth radius; Traccar's equatorial one differs by 0.1 % at the edge). */
function contains(shape: GeofenceShape, lon: number, lat: number): boolean {
  const p = point([lon, lat]);
  if (shape.kind === 'circle') return distance(p, point(shape.center), { units: 'meters' }) <= shape.radius;
  if (shape.kind === 'polygon') return booleanPointInPolygon(p, polygon(shape.rings));
  return pointToLineDistance(p, lineString(shape.points), { units: 'meters' }) <= shape.width;
}

/**
 * The geofences that have a `speedLimit` attribute, followed from geofences.v1 (the geofence
 * service's compacted definitions with links and parsed shape, read from the beginning by every
 * instance in its own group): the overspeed step takes the limit of the fences containing a fix
 * (Traccar's position geofenceIds). Fences without a limit are not kept; a fence's calendar is not
 * applied to its speed limit. Every fence's name is kept too (a web notification names the fence).
 */
export class SpeedLimitFences {
  private readonly fences = new Map<number, SpeedLimitFence>();
  private readonly names = new Map<number, string>();
  private sub: Subscription | undefined;

  constructor(private readonly deps: { bus: Bus; logger: Logger }) {}

  /** Applies definitions in order (a later one replaces, a tombstone or a fence without limit removes). */
  apply(messages: readonly GeofenceDefinitionMessage[]): void {
    for (const m of messages) {
      if (m.deleted) this.names.delete(m.id);
      else this.names.set(m.id, m.name);
      const limit = m.deleted ? undefined : m.attributes.speedLimit;
      if (m.deleted || !m.shape || typeof limit !== 'number' || !(limit > 0)) {
        this.fences.delete(m.id);
        continue;
      }
      this.fences.set(m.id, {
        id: m.id,
        speedLimit: limit,
        shape: m.shape,
        kind: m.kind,
        companyId: m.companyId,
        deviceIds: new Set(m.links.deviceIds),
        groupIds: new Set(m.links.groupIds),
      });
    }
    fencesHeld.set(this.fences.size);
  }

  /** The name of a fence that exists, as its last definition gave it. */
  nameOf(id: number): string | undefined {
    return this.names.get(id);
  }

  has(id: number): boolean {
    return this.fences.has(id);
  }

  /** The fences with a limit that contain the point and apply to the device. */
  containing(owner: FenceOwner, lon: number, lat: number): FenceLimit[] {
    const out: FenceLimit[] = [];
    for (const f of this.fences.values()) {
      if (geofenceAppliesTo(f, owner.deviceId, owner.groupChain) && contains(f.shape, lon, lat))
        out.push({ geofenceId: f.id, speedLimit: f.speedLimit });
    }
    return out;
  }

  async start(): Promise<void> {
    this.sub = await consumeValidated({
      bus: this.deps.bus,
      logger: this.deps.logger,
      groupId: `ops-speed-limit-fences-${randomUUID()}`,
      topic: Topics.geofences,
      schema: GeofenceDefinitionMessage,
      fromBeginning: true,
      handle: async (msgs) => this.apply(msgs),
    });
  }

  async stop(): Promise<void> {
    await this.sub?.stop();
  }
}
