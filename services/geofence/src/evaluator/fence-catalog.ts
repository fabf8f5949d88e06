import type { GeofenceKind } from '@corridor/contracts';
import { gauge, type Logger, type SettingLayers } from '@corridor/platform';
import type { GeofenceLinkRow, GeofenceRow } from '../db/schema';
import { parseAreaWkt } from '../fences/area-wkt';
import { BBoxFenceIndex } from '../fences/bbox-fence-index';
import type { FenceShape, LonLat } from '../fences/fence';
import { pointsBBox } from '../fences/geometry';
import type { FenceRule } from './fence-state';

const fencesLoaded = gauge('geofence_fences_loaded', 'Fences in the evaluator index');
const indexRebuild = gauge('geofence_index_rebuild_seconds', 'Duration of the last index rebuild');

/** A fence as the evaluator needs it: shape, hysteresis rule, links. */
export interface CatalogFence {
  /** the numeric id as a string (the FenceIndex and fence-state key) */
  id: string;
  name: string;
  kind: GeofenceKind;
  /** ISO country of the fence (border posts: the side it stands on), carried on its events */
  country: string | null;
  shape: FenceShape;
  rule: FenceRule;
  /** the calendar whose events bound when the fence is active; null = always (Traccar writes 0 for none) */
  calendarId: number | null;
  deviceIds: ReadonlySet<number>;
  groupIds: ReadonlySet<number>;
  /** The owning company; null for a shared fence (seeded border posts, association fences). */
  companyId: number | null;
}

const nonNegative = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);

/**
 * The fences every evaluator instance holds in memory, with the bounding-box index over them
 * (BBoxFenceIndex: fastest of the three candidates in tools/bench/suites/geofence-index.ts).
 * Changes mark the index stale; it is rebuilt once, at the next query.
 */
export class FenceCatalog {
  private readonly fences = new Map<string, CatalogFence>();
  private readonly index = new BBoxFenceIndex();
  private stale = true;
  private withCalendar = 0;
  private changes = 0;

  constructor(private readonly logger: Logger) {}

  /** Puts (or replaces) the given fences with their links; rows whose stored area no longer parses are skipped. */
  upsert(rows: readonly GeofenceRow[], links: readonly GeofenceLinkRow[]): void {
    const byFence = new Map<number, GeofenceLinkRow[]>();
    for (const l of links) byFence.set(l.geofenceId, [...(byFence.get(l.geofenceId) ?? []), l]);
    for (const r of rows) {
      const parsed = parseAreaWkt(r.area, r.attributes);
      if (!parsed.ok) {
        this.logger.error({ geofenceId: r.id, errors: parsed.errors }, 'stored geofence area does not parse; fence ignored');
        this.delete(String(r.id));
        continue;
      }
      const own = byFence.get(r.id) ?? [];
      this.set({
        id: String(r.id),
        name: r.name,
        kind: r.kind,
        country: r.country,
        shape: parsed.shape,
        rule: { minDwellSeconds: nonNegative(r.attributes.minDwellSeconds), exitMarginMeters: nonNegative(r.attributes.exitMarginMeters) },
        calendarId: r.calendarId !== null && r.calendarId > 0 ? r.calendarId : null,
        deviceIds: new Set(own.flatMap((l) => (l.deviceId === null ? [] : [l.deviceId]))),
        groupIds: new Set(own.flatMap((l) => (l.groupId === null ? [] : [l.groupId]))),
        companyId: r.companyId,
      });
    }
    this.stale = true;
    this.changes++;
  }

  remove(ids: readonly string[]): void {
    for (const id of ids) this.delete(id);
    this.stale = true;
    this.changes++;
  }

  clear(): void {
    this.fences.clear();
    this.withCalendar = 0;
    this.stale = true;
    this.changes++;
  }

  /** Grows with every change of the fences (readers that derive something from them rebuild when it moves). */
  get version(): number {
    return this.changes;
  }

  /** Every fence held. */
  all(): IterableIterator<CatalogFence> {
    return this.fences.values();
  }

  /** How many fences are bound to a calendar (none: the evaluator skips calendars altogether). */
  get calendarFences(): number {
    return this.withCalendar;
  }

  get(id: string): CatalogFence | undefined {
    return this.fences.get(id);
  }

  get size(): number {
    return this.fences.size;
  }

  /** Ids of the fences whose exact test holds for the fix (links not applied). */
  containing(lon: number, lat: number): string[] {
    if (this.stale) this.rebuild();
    return this.index.containing(lon, lat);
  }

  /** Ids of the fences whose box meets the box of the segment from `a` to `b` (candidates for a crossing). */
  nearSegment(a: LonLat, b: LonLat): string[] {
    if (this.stale) this.rebuild();
    return this.index.overlapping(pointsBBox([a, b]));
  }

  private set(fence: CatalogFence): void {
    this.delete(fence.id);
    this.fences.set(fence.id, fence);
    if (fence.calendarId !== null) this.withCalendar++;
  }

  private delete(id: string): void {
    if (this.fences.get(id)?.calendarId != null) this.withCalendar--;
    this.fences.delete(id);
  }

  private rebuild(): void {
    const t = performance.now();
    this.index.load([...this.fences.values()].map((f) => ({ id: f.id, shape: f.shape })));
    this.stale = false;
    fencesLoaded.set(this.fences.size);
    indexRebuild.set((performance.now() - t) / 1000);
  }
}

/**
 * The ids of a device's group and of its parents, nearest first (the groups ops-api publishes; a
 * group not published yet is itself alone), for the links a fence has through groups.
 */
export function groupChainIds(settings: SettingLayers, groupId: number | null | undefined): number[] {
  if (groupId == null) return [];
  const line = settings.groupLine(groupId).map((g) => g.id);
  return line.length ? line : [groupId];
}
