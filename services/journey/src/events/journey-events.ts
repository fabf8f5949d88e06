import type { EventMessage, EventType, JourneyFlagType } from '@corridor/contracts';
import type { FlagChange } from '../detectors/flag-change';
import type { JourneyTransition } from '../detectors/journey-evaluator';

/** What an event needs to know about its journey. */
export interface JourneyRef {
  id: number;
  deviceId: number;
  routeId: number;
  companyId: number | null;
}

const base = (j: JourneyRef, type: EventType, time: string, id: string): EventMessage => ({
  id,
  type,
  eventTime: time,
  deviceId: j.deviceId,
  positionId: null,
  journeyId: String(j.id),
  geofenceId: null,
  latitude: null,
  longitude: null,
  attributes: { routeId: j.routeId, companyId: j.companyId },
});

/**
 * A flag opening, escalation or clearing. The id is derived from the change itself, so a change
 * produced again (a redelivered position) carries the same id and stores dedupe it.
 */
export function flagChangeEvent(j: JourneyRef, change: FlagChange, flagId: number | null, positionId: number | null): EventMessage {
  const escalated = change.action === 'open' && change.details.escalated === true;
  const step = escalated ? 'escalated' : change.action === 'open' ? 'opened' : 'cleared';
  const e = base(
    j,
    change.action === 'open' ? 'journeyFlagOpened' : 'journeyFlagCleared',
    change.time,
    `journey-${j.id}-${change.type}-${step}-${Date.parse(change.time)}`,
  );
  return {
    ...e,
    positionId,
    latitude: change.latitude,
    longitude: change.longitude,
    attributes: { ...e.attributes, flagType: change.type, flagId, escalated, details: change.details },
  };
}

export function transitionEvent(j: JourneyRef, t: JourneyTransition, positionId: number | null): EventMessage {
  const type: EventType = t.to === 'active' ? 'journeyStarted' : 'journeyCompleted';
  const e = base(j, type, t.time, `journey-${j.id}-${t.to}`);
  return { ...e, positionId, latitude: t.latitude, longitude: t.longitude };
}

export function cancelledEvent(j: JourneyRef, time: string, by: number, reason: string | null): EventMessage {
  const e = base(j, 'journeyCancelled', time, `journey-${j.id}-cancelled`);
  return { ...e, attributes: { ...e.attributes, userId: by, reason } };
}

export function flagReviewEvent(
  j: JourneyRef,
  flag: { id: number; type: JourneyFlagType },
  action: 'acknowledged' | 'resolved',
  time: string,
  by: number,
  note: string | null,
): EventMessage {
  const e = base(
    j,
    action === 'acknowledged' ? 'journeyFlagAcknowledged' : 'journeyFlagResolved',
    time,
    `journey-${j.id}-flag-${flag.id}-${action}`,
  );
  return { ...e, attributes: { ...e.attributes, flagType: flag.type, flagId: flag.id, userId: by, note } };
}
