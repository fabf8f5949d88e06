import type { CorridorId } from '@corridor/geodata';

/** 1: along the corridor's line (from its port inland), -1: against it, 0: not known. */
export type Direction = -1 | 0 | 1;

/** Why a leg is counted apart from the trips (none: a counted trip). */
export type LegExclusion = '' | 'left_corridor' | 'long_stop';

/** A stay at a measured place, from its enter to its exit (the geofence rules). */
export interface VisitFact {
  kind: 'visit';
  deviceId: number;
  placeId: string;
  placeName: string;
  placeKind: string;
  corridor: CorridorId | null;
  /** the way the truck came in */
  direction: Direction;
  enteredAt: number;
  exitedAt: number;
}

/** From leaving one place to reaching the next on the corridor ('segment'), or end to end ('corridor'). */
export interface LegFact {
  kind: 'leg';
  deviceId: number;
  corridor: CorridorId;
  legKind: 'segment' | 'corridor';
  from: { id: string; name: string; along: number };
  to: { id: string; name: string; along: number };
  direction: Exclude<Direction, 0>;
  departedAt: number;
  arrivedAt: number;
  excluded: LegExclusion;
}

/** A stop of five minutes or more; `area` is the authorized place or truck park it was in, '' outside them. */
export interface StopFact {
  kind: 'stop';
  deviceId: number;
  corridor: CorridorId | null;
  direction: Direction;
  startedAt: number;
  endedAt: number;
  lon: number;
  lat: number;
  area: string;
}

/** The running total of a device's distance on one UTC day, on a corridor (null: off both) in a direction. */
interface DistanceFact {
  kind: 'distance';
  deviceId: number;
  /** YYYY-MM-DD, UTC */
  day: string;
  corridor: CorridorId | null;
  direction: Direction;
  metres: number;
  /** the fix time (ms) the total was made at: the latest total of a key is the one kept */
  version: number;
}

export type ObservatoryFact = VisitFact | LegFact | StopFact | DistanceFact;
