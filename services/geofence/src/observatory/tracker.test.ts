import { describe, expect, it } from 'vitest';
import { corridorLines } from './corridor-lines';
import type { LegFact, ObservatoryFact, StopFact, VisitFact } from './facts';
import { ObservatoryMap, observatoryPlaces } from './observatory-map';
import { fenceIdOf, seededFences, TrackBuilder, ugandaToWebuye, webuyeToMalaba as knownWebuyeToMalaba } from './track-builder';
import { trackAll } from './tracker';

/**
 * The observatory tracker on constructed tracks with known answers (track-builder.ts places every
 * fix, so the expected times are those of the construction): over the seeded places of
 * @corridor/geodata with the geofence service's own seed rules.
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const T0 = Date.parse('2026-03-02T06:00:00Z');
const map = new ObservatoryMap(observatoryPlaces(seededFences(), corridorLines()));
const id = {
  port: fenceIdOf('ke-mombasa-port'),
  mariakani: fenceIdOf('ke-wb-mariakani'),
  athi: fenceIdOf('ke-wb-athi-river'),
  icd: fenceIdOf('ke-nairobi-icd'),
  gilgil: fenceIdOf('ke-wb-gilgil'),
  webuye: fenceIdOf('ke-wb-webuye'),
  malaba: fenceIdOf('ke-malaba'),
};

const visits = (facts: ObservatoryFact[]) => facts.filter((f): f is VisitFact => f.kind === 'visit');
const legs = (facts: ObservatoryFact[], kind: LegFact['legKind'] = 'segment') =>
  facts.filter((f): f is LegFact => f.kind === 'leg' && f.legKind === kind);
const stops = (facts: ObservatoryFact[]) => facts.filter((f): f is StopFact => f.kind === 'stop');

describe('observatory places', () => {
  it('puts the seeded places of each corridor in order, with its port and final border post as ends', () => {
    const names = (c: 'northern' | 'central') => map.placesOn(c).map((p) => `${p.name}${p.end ? ` (${p.end})` : ''}`);
    expect(names('northern')).toEqual([
      'Port of Mombasa (Kilindini and Kipevu) (start)',
      'Mariakani weighbridge',
      'Athi River (Mlolongo) weighbridge',
      'Inland Container Depot Nairobi (Embakasi)',
      'Gilgil weighbridge',
      'Webuye weighbridge',
      'Malaba OSBP (end)',
    ]);
    expect(names('central')).toEqual([
      'Port of Dar es Salaam (start)',
      'Vigwaza weighbridge',
      'Mikese weighbridge',
      'Isaka Dry Port',
      'Mwendakulima weighbridge (Kahama)',
      'Nyakanazi weighbridge',
      'Rusumo OSBP (end)',
    ]);
    // border posts off both lines are measured for dwell, with no corridor
    expect(map.byId.get(fenceIdOf('ke-busia'))?.corridor).toBeNull();
  });
});

describe('observatory tracker on constructed tracks', () => {
  const webuyeToMalaba = (opts: { swerve?: boolean } = {}) => knownWebuyeToMalaba(T0, opts);

  it('a truck that waits 3 h 10 min at Malaba: a visit of 11,400 s, coming from Webuye (forward)', () => {
    const { b, atWebuye, leftWebuye, atMalaba, leftMalaba } = webuyeToMalaba();
    const { facts } = trackAll(undefined, 7, b.fixes, map);
    const malaba = visits(facts).filter((v) => v.placeId === id.malaba);
    expect(malaba).toHaveLength(1);
    expect(malaba[0]).toMatchObject({
      deviceId: 7,
      enteredAt: atMalaba,
      exitedAt: leftMalaba,
      direction: 1,
      corridor: 'northern',
      placeKind: 'border_post',
    });
    expect((malaba[0]!.exitedAt - malaba[0]!.enteredAt) / 1000).toBe(3 * 3600 + 10 * 60);
    expect(leftMalaba - atMalaba).toBe(3 * HOUR + 10 * MINUTE);

    const webuye = visits(facts).find((v) => v.placeId === id.webuye)!;
    expect(webuye).toMatchObject({ enteredAt: atWebuye, exitedAt: leftWebuye, direction: 1 });
    expect(legs(facts)).toEqual([
      expect.objectContaining({
        from: expect.objectContaining({ id: id.webuye }),
        to: expect.objectContaining({ id: id.malaba }),
        direction: 1,
        departedAt: leftWebuye,
        arrivedAt: atMalaba,
        excluded: '',
      }),
    ]);
  });

  it('a trip that leaves the corridor is counted apart (left_corridor), the same trip straight is counted', () => {
    const straight = trackAll(undefined, 1, webuyeToMalaba().b.fixes, map).facts;
    const { b, leftWebuye, atMalaba } = webuyeToMalaba({ swerve: true });
    const detour = trackAll(undefined, 2, b.fixes, map).facts;
    expect(legs(straight)[0]!.excluded).toBe('');
    expect(legs(detour)).toEqual([
      expect.objectContaining({
        from: expect.objectContaining({ id: id.webuye }),
        to: expect.objectContaining({ id: id.malaba }),
        departedAt: leftWebuye,
        arrivedAt: atMalaba,
        excluded: 'left_corridor',
      }),
    ]);
    // the dwell at Malaba is measured all the same: the detour was before it
    expect(visits(detour).find((v) => v.placeId === id.malaba)).toMatchObject({ direction: 1 });
    // 20 minutes standing on the side road: a stop outside every authorized place, off the corridor
    expect(stops(detour)).toContainEqual(expect.objectContaining({ area: '', corridor: null }));
  });

  it('tells the directions apart: from Uganda through Malaba to Webuye is reverse', () => {
    const { b, atMalaba, leftMalaba, atWebuye } = ugandaToWebuye(T0);
    const { facts } = trackAll(undefined, 3, b.fixes, map);
    // the fix 600 m before the post (36 s at 60 km/h) is the first inside its 800 m circle
    expect(visits(facts).map((v) => [v.placeId, v.direction, v.enteredAt])).toEqual([
      [id.malaba, -1, atMalaba - 36_000],
      [id.webuye, -1, atWebuye],
    ]);
    expect(legs(facts)).toEqual([
      expect.objectContaining({
        from: expect.objectContaining({ id: id.malaba }),
        to: expect.objectContaining({ id: id.webuye }),
        direction: -1,
        departedAt: leftMalaba,
        arrivedAt: atWebuye,
        excluded: '',
      }),
    ]);
  });

  it('a truck coming in from off the corridor enters an end post inward; at a place mid-corridor its way in is unknown', () => {
    const b = new TrackBuilder('northern', { at: 0, time: T0 });
    b.along = b.length + 20_000; // far into Uganda, then the next fix at the post
    b.fix(60)
      .drive('ke-malaba', 80, 20 * MINUTE)
      .wait(HOUR)
      .drive(b.length + 20_000, 80, 20 * MINUTE);
    const c = new TrackBuilder('northern', { at: 'ke-wb-gilgil', time: T0 });
    c.side = 8_000;
    c.fix(40)
      .swerve(0, 10 * MINUTE)
      .wait(HOUR)
      .drive(c.alongOf('ke-wb-gilgil') + 5_000, 60);
    expect(visits(trackAll(undefined, 10, b.fixes, map).facts).map((v) => [v.placeId, v.direction])).toEqual([[id.malaba, -1]]);
    expect(visits(trackAll(undefined, 11, c.fixes, map).facts).map((v) => [v.placeId, v.direction])).toEqual([[id.gilgil, 0]]);
  });

  /** Mombasa port to Malaba, a fix every 5 minutes, waiting at Mariakani and Gilgil; `stopHours` standing by the road near Voi. */
  function portToMalaba(opts: { stopHours?: number; silentHours?: number } = {}) {
    const b = new TrackBuilder('northern', { at: 'ke-mombasa-port', time: T0 });
    const every = 5 * MINUTE;
    b.fix(0).wait(2 * HOUR, every);
    const leftPort = b.t + every;
    b.drive('ke-wb-mariakani', 60, every).wait(40 * MINUTE, every);
    b.drive(b.alongOf('ke-pk-voi') + 12_000, 60, every);
    if (opts.stopHours) b.wait(opts.stopHours * HOUR, every);
    if (opts.silentHours) b.silence(opts.silentHours * HOUR).fix(0);
    b.drive('ke-wb-gilgil', 60, every)
      .wait(30 * MINUTE, every)
      .drive('ke-malaba', 60, every);
    const atMalaba = b.t;
    b.wait(2 * HOUR, every);
    return { b, leftPort, atMalaba };
  }

  it('a corridor trip, end to end, with every segment on the way; places without a fix near them are passed on the line', () => {
    const { b, leftPort, atMalaba } = portToMalaba();
    const { facts, skipped } = trackAll(undefined, 4, b.fixes, map);
    expect(skipped).toBe(0);
    expect(legs(facts, 'corridor')).toEqual([
      expect.objectContaining({
        from: expect.objectContaining({ id: id.port }),
        to: expect.objectContaining({ id: id.malaba }),
        direction: 1,
        departedAt: leftPort,
        arrivedAt: atMalaba,
        excluded: '',
      }),
    ]);
    const segments = legs(facts);
    expect(segments.map((l) => [l.from.id, l.to.id])).toEqual([
      [id.port, id.mariakani],
      [id.mariakani, id.athi],
      [id.athi, id.icd],
      [id.icd, id.gilgil],
      [id.gilgil, id.webuye],
      [id.webuye, id.malaba],
    ]);
    // consecutive segments join: each departs where (and when, for a place passed) the last arrived
    for (const [a, c] of segments.slice(0, -1).map((l, i) => [l, segments[i + 1]!] as const)) {
      expect(c.departedAt).toBeGreaterThanOrEqual(a.arrivedAt);
      expect(segments.every((l) => l.excluded === '' && l.arrivedAt > l.departedAt)).toBe(true);
    }
    // passed between two fixes 5 km apart: arrival and departure at the same interpolated time
    const athiIn = segments.find((l) => l.to.id === id.athi)!;
    const athiOut = segments.find((l) => l.from.id === id.athi)!;
    expect(athiOut.departedAt).toBe(athiIn.arrivedAt);
    expect(visits(facts).map((v) => v.placeId)).toEqual([id.port, id.mariakani, id.gilgil]); // the places it stayed at
  });

  it('a trip with a stop of more than a day, or a silence of more than a day, is counted apart (long_stop), and only the legs it fell in', () => {
    for (const variant of [{ stopHours: 30 }, { silentHours: 30 }]) {
      const { facts } = trackAll(undefined, 5, portToMalaba(variant).b.fixes, map);
      expect(legs(facts, 'corridor')[0]!.excluded).toBe('long_stop');
      expect(legs(facts).map((l) => [l.to.id, l.excluded])).toEqual([
        [id.mariakani, ''],
        [id.athi, 'long_stop'],
        [id.icd, ''],
        [id.gilgil, ''],
        [id.webuye, ''],
        [id.malaba, ''],
      ]);
    }
  });

  it('records stops with the authorized place they were in, and the distance of each day', () => {
    const { b } = portToMalaba({ stopHours: 1 });
    const { facts, state } = trackAll(undefined, 6, b.fixes, map);
    const s = stops(facts);
    expect(s.find((x) => x.area === id.mariakani)).toBeDefined();
    const roadside = s.filter((x) => x.area === '');
    expect(roadside).toHaveLength(1);
    expect(roadside[0]).toMatchObject({ corridor: 'northern', direction: 1 });
    expect(roadside[0]!.endedAt - roadside[0]!.startedAt).toBe(HOUR); // from its first fix standing to its first fix moving
    // the day's distance: written as a running total, the latest per key is the day's
    const totals = new Map<string, number>();
    for (const f of facts) if (f.kind === 'distance') totals.set(`${f.day}|${f.corridor}|${f.direction}`, f.metres);
    for (const [key, metres] of Object.entries(state.dist?.m ?? {}))
      totals.set(`${state.dist!.day}|${key.split('|')[0]}|${key.split('|')[1]}`, metres);
    const driven = [...totals.values()].reduce((a, v) => a + v, 0);
    expect(driven / b.length).toBeGreaterThan(0.99);
    expect(driven / b.length).toBeLessThan(1.01);
  });

  it('is idempotent: the same fixes again change nothing and make no facts', () => {
    const fixes = webuyeToMalaba().b.fixes;
    const first = trackAll(undefined, 8, fixes, map);
    const saved = JSON.stringify(first.state);
    const again = trackAll(JSON.parse(saved) as typeof first.state, 8, fixes, map);
    expect(again.facts).toEqual([]);
    expect(JSON.stringify(again.state)).toBe(saved);
  });

  it('gives the same facts whether the fixes come in one batch or one by one through a saved state', () => {
    const fixes = portToMalaba().b.fixes;
    const whole = trackAll(undefined, 9, fixes, map).facts;
    let state: ReturnType<typeof trackAll>['state'] | undefined;
    const pieces: ObservatoryFact[] = [];
    for (const f of fixes) {
      const r = trackAll(state ? (JSON.parse(JSON.stringify(state)) as typeof state) : undefined, 9, [f], map);
      state = r.state;
      pieces.push(...r.facts);
    }
    expect(pieces).toEqual(whole);
  });
});
