import { PLACES, type PlaceKind } from '@corridor/geodata';
import { gaussian, type Random } from './random';

/**
 * How long a truck waits at a border post, weighbridge or port gate: a typical (median) wait per
 * place, longer at the busy hours of the day, spread lognormally (most waits near the typical one,
 * a few several times longer). The typical waits are of the order the Northern and Central Corridor
 * observatories report for these places (border posts hours, weighbridges minutes); they are the
 * simulator's assumptions, not measurements.
 */
const TYPICAL_BY_KIND: Partial<Record<PlaceKind, number>> = {
  border_post: 2 * 3600,
  weighbridge: 15 * 60,
  port: 8 * 3600,
  inland_depot: 4 * 3600,
  parking: 15 * 60,
};
const TYPICAL_BY_PLACE: Readonly<Record<string, number>> = {
  'ke-malaba': 3.5 * 3600,
  'tz-rusumo': 2.5 * 3600,
  'ke-wb-mariakani': 25 * 60,
  'ke-wb-athi-river': 35 * 60,
  'ke-wb-gilgil': 12 * 60,
  'ke-wb-webuye': 18 * 60,
  'tz-wb-vigwaza': 30 * 60,
  'tz-wb-mikese': 15 * 60,
  'tz-wb-mwendakulima': 20 * 60,
  'tz-wb-nyakanazi': 10 * 60,
};
const kindOf = new Map(PLACES.map((p) => [p.id, p.kind]));

/** East Africa Time is UTC+3 all year. */
const EAT_OFFSET_H = 3;

/**
 * The busy-hour factor: queues build through the morning and peak early in the afternoon (1.6 at
 * 13:00 local), and are shortest in the small hours (0.5 at 01:00).
 */
export function busyFactor(at: Date): number {
  const hour = (at.getUTCHours() + at.getUTCMinutes() / 60 + EAT_OFFSET_H) % 24;
  return 1.05 + 0.55 * Math.cos(((hour - 13) / 24) * 2 * Math.PI);
}

/** The typical wait at a place (seconds), before the hour and the spread. */
export function typicalWait(placeId: string): number | undefined {
  return TYPICAL_BY_PLACE[placeId] ?? TYPICAL_BY_KIND[kindOf.get(placeId) as PlaceKind];
}

/** A wait at the place for a truck arriving at `at`, seconds: between 2 minutes and 14 hours. */
export function waitSeconds(placeId: string, at: Date, random: Random): number {
  const typical = typicalWait(placeId) ?? 10 * 60;
  return Math.round(Math.min(14 * 3600, Math.max(120, typical * busyFactor(at) * Math.exp(0.45 * gaussian(random)))));
}
