import { describe, expect, it } from 'vitest';
import { positionId, type DeviceSessionMessage, type PositionMessage } from '@corridor/contracts';
import { freshState, onPosition, onSession, onTimeout, type DeviceLiveState } from './status';

const T0 = Date.UTC(2026, 2, 1, 6, 0, 0);
const pos = (fixS: number, serverS = fixS, state = false): PositionMessage => ({
  id: positionId(5, T0 + fixS * 1000, state ? 'state' : 'fix'),
  deviceId: 5,
  uniqueId: 'u5',
  protocol: 'gt06',
  fixTime: new Date(T0 + fixS * 1000).toISOString(),
  serverTime: new Date(T0 + serverS * 1000).toISOString(),
  valid: !state,
  latitude: -1,
  longitude: 36,
  speed: 0,
  course: 0,
  altitude: null,
  accuracy: null,
  satellites: null,
  hdop: null,
  ignition: null,
  odometer: null,
  power: null,
  battery: null,
  alarm: null,
  crcValid: true,
  rawFrameId: null,
  attributes: {},
});
const session = (type: DeviceSessionMessage['type'], s: number, connectionId = 'i1:1'): DeviceSessionMessage => ({
  deviceId: 5,
  uniqueId: 'u5',
  type,
  connectionId,
  protocol: 'gt06',
  time: new Date(T0 + s * 1000).toISOString(),
});

describe('device status', () => {
  it('goes online with the first data, keeps lastUpdate and the latest position (a state record of the same second is later)', () => {
    let r = onPosition(freshState('u5'), pos(10));
    expect(r.change).toEqual({ type: 'deviceOnline', time: T0 + 10_000 });
    r = onPosition(r.state, pos(10, 12, true));
    expect(r.change).toBeUndefined();
    expect(r.state).toMatchObject({ status: 'online', lastUpdate: T0 + 12_000, positionId: positionId(5, T0 + 10_000, 'state') });
    r = onPosition(r.state, pos(5, 13)); // an older fix arriving late: lastUpdate moves, positionId does not
    expect(r.state).toMatchObject({ lastUpdate: T0 + 13_000, positionId: positionId(5, T0 + 10_000, 'state') });
  });

  it('never takes a fix ingest marked clockAhead as the latest position, and counts it as the device heard (issue 23)', () => {
    const online = onPosition(freshState('u5'), pos(10)).state;
    const ahead = { ...pos(10 + 540, 20), attributes: { clockAhead: 530 } }; // 9 min ahead, as the sweep's
    const r = onPosition(online, ahead);
    expect(r.state).toMatchObject({ lastUpdate: T0 + 20_000, positionId: positionId(5, T0 + 10_000, 'fix'), fixTime: T0 + 10_000 });
    expect(onPosition(r.state, pos(30)).state.positionId).toBe(positionId(5, T0 + 30_000, 'fix'));
  });

  it('goes offline when its last connection closes, not while another is open or after newer data', () => {
    let s: DeviceLiveState = onSession(freshState('u5'), session('connected', 0, 'a')).state;
    s = onSession(s, session('connected', 1, 'b')).state;
    let r = onSession(s, session('disconnected', 2, 'a'));
    expect(r.change).toBeUndefined();
    r = onSession(r.state, session('disconnected', 3, 'b'));
    expect(r.change).toEqual({ type: 'deviceOffline', time: T0 + 3_000 });
    // a disconnect that is older than the data heard since does not take the device offline
    s = onPosition(onSession(r.state, session('connected', 4, 'c')).state, pos(10, 10)).state;
    expect(onSession(s, session('disconnected', 9, 'c')).change).toBeUndefined();
  });

  it('becomes unknown when silent past the timeout, dated to when it ran out; then old news never brings it back', () => {
    const online = onPosition(freshState('u5'), pos(0, 100)).state;
    expect(onTimeout(online, T0 + 699_999, 600_000).change).toBeUndefined();
    const r = onTimeout(online, T0 + 900_000, 600_000);
    expect(r.change).toEqual({ type: 'deviceUnknown', time: T0 + 700_000 });
    expect(onPosition(r.state, pos(0, 100)).change).toBeUndefined(); // the same position redelivered
    expect(onPosition(r.state, pos(800, 800)).change).toEqual({ type: 'deviceOnline', time: T0 + 800_000 });
    expect(onTimeout(onSession(online, session('disconnected', 101)).state, T0 + 999_999, 600_000).change).toBeUndefined(); // offline stays offline
    // a connected device that timed out to unknown goes offline when its connection closes (Traccar's deviceDisconnected)
    const connected = onSession(freshState('u5'), session('connected', 100, 'k')).state;
    const silent = onTimeout(connected, T0 + 900_000, 600_000).state;
    expect(onSession(silent, session('disconnected', 800, 'k')).change).toEqual({ type: 'deviceOffline', time: T0 + 800_000 });
  });

  it('gives one transition per replayed sequence', () => {
    const seq = [pos(0), pos(10), pos(20)];
    let s = freshState('u5');
    const changes: unknown[] = [];
    for (const p of [...seq, ...seq]) {
      const r = onPosition(s, p);
      s = r.state;
      if (r.change) changes.push(r.change);
    }
    expect(changes).toEqual([{ type: 'deviceOnline', time: T0 }]);
  });
});
