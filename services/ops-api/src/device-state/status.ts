import type { DeviceSessionMessage, EventMessage, PositionMessage } from '@corridor/contracts';
import type { PositionEventState } from './position-events';

type LiveStatus = 'online' | 'offline' | 'unknown';

/**
 * A device's live state as the platform keeps it (Traccar's Device.status, lastUpdate and
 * positionId, with its ConnectionManager's open sessions).
 */
export interface DeviceLiveState {
  v: 1;
  uniqueId: string;
  status: LiveStatus;
  /** When the status last changed (epoch ms): older news never changes it again. */
  statusTime: number;
  /** Server time of the last message from the device (epoch ms). */
  lastUpdate: number | null;
  /** The latest position (by fix time, then id) and its fix time. */
  positionId: number | null;
  fixTime: number | null;
  /** Open connections of the device (connection ids from ingest). */
  connections: string[];
  /** When status, lastUpdate and positionId last went to PostgreSQL and devices.v1. */
  persistedAt: number;
  /** What the ignition, motion and overspeed events of its positions depend on (position-events.ts). */
  events?: PositionEventState;
}

type StatusEventType = 'deviceOnline' | 'deviceOffline' | 'deviceUnknown';
export interface StatusChange {
  type: StatusEventType;
  time: number;
}

export interface Step {
  state: DeviceLiveState;
  change?: StatusChange;
  /** Events of the device's positions (ignition, motion, overspeed). */
  events?: EventMessage[];
}

export const freshState = (uniqueId: string): DeviceLiveState => ({
  v: 1,
  uniqueId,
  status: 'unknown',
  statusTime: 0,
  lastUpdate: null,
  positionId: null,
  fixTime: null,
  connections: [],
  persistedAt: 0,
});

const eventOf: Record<LiveStatus, StatusEventType> = { online: 'deviceOnline', offline: 'deviceOffline', unknown: 'deviceUnknown' };

function become(s: DeviceLiveState, status: LiveStatus, time: number): Step {
  if (s.status === status) return { state: s };
  return { state: { ...s, status, statusTime: time }, change: { type: eventOf[status], time } };
}

/** Data from the device at `time` (server time): it is online, unless this is older news than the last status change. */
function heard(s: DeviceLiveState, time: number): Step {
  const state = { ...s, lastUpdate: Math.max(s.lastUpdate ?? 0, time) };
  return time > s.statusTime ? become(state, 'online', time) : { state };
}

/** A position (fix or state record) of the device. */
export function onPosition(s: DeviceLiveState, p: PositionMessage): Step {
  const fixTime = Date.parse(p.fixTime);
  // ingest marks a fix dated past the allowed skew ahead of the server (clockAhead): the device is heard, the fix never becomes its latest
  const ahead = typeof p.attributes.clockAhead === 'number';
  const later =
    !ahead && (s.fixTime === null || s.positionId === null || fixTime > s.fixTime || (fixTime === s.fixTime && p.id > s.positionId));
  const state = later ? { ...s, positionId: p.id, fixTime } : s;
  return heard(state, Date.parse(p.serverTime));
}

/**
 * A connection message from ingest. A device goes offline when its last open connection closes
 * (Traccar: a connection-based device disconnected), unless it was heard after that.
 */
export function onSession(s: DeviceLiveState, m: DeviceSessionMessage): Step {
  const time = Date.parse(m.time);
  if (m.type === 'disconnected') {
    const state = { ...s, connections: s.connections.filter((c) => c !== m.connectionId) };
    if (state.connections.length || s.status === 'offline' || time < (s.lastUpdate ?? 0) || time < s.statusTime) return { state };
    return become(state, 'offline', time);
  }
  const state =
    m.type === 'connected' && !s.connections.includes(m.connectionId) ? { ...s, connections: [...s.connections, m.connectionId] } : s;
  return heard(state, time);
}

/**
 * An online device silent for `timeoutMs` is unknown (Traccar status.timeout), dated to the moment
 * the timeout ran out, so every instance that sweeps reaches the same event.
 */
export function onTimeout(s: DeviceLiveState, now: number, timeoutMs: number): Step {
  if (s.status !== 'online') return { state: s };
  const due = (s.lastUpdate ?? s.statusTime) + timeoutMs;
  return now >= due ? become(s, 'unknown', due) : { state: s };
}
