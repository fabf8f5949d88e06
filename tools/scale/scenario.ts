import type { Device, Journey, JourneyDetail, Route } from '@corridor/contracts';
import { Topics, parsePositionId, positionId } from '@corridor/contracts';
import { POSITION_WRITER_GROUP } from '@corridor/ingest/positions/position-store';
import { EVALUATOR_GROUP as JOURNEY_GROUP } from '@corridor/journey/evaluator/position-evaluator';
import { EVALUATOR_GROUP as GEOFENCE_GROUP } from '@corridor/geofence/evaluator/position-consumer';
import { checkSessionsAcross, openLiveAcross, verifyLive, type LiveReport } from './across-gateways';
import type { ScaleCluster } from './cluster';
import { expectedFlagChanges, fixOf, imeiOf, routeGeometry, trackerSender, CYCLE, type Truck } from './trackers';
import { CeilingPassed, until } from './until';
import { committedOffsets } from '@corridor/platform';
import { endOffsets } from './bus-tally';

/**
 * The multi-instance run (issue 16): trucks on active journeys stream fixes over TCP to the ingest
 * instances; with `kill` set, one ingest and one journey instance are SIGKILLed a quarter into the
 * middle third of the fixes (connections and in-flight fixes cut, uncommitted offsets left behind)
 * and started again, and the last third is sent once both are back. Then, after every position
 * consumer group has committed past the end of positions.v1, it counts what the stores hold.
 */
export interface ScenarioOptions {
  trucks: number;
  /** Fixes per truck: a multiple of 12 (whole on/off cycles), at least 36. */
  fixes: number;
  /** Trucks i with i % detourEvery === 0 detour. */
  detourEvery: number;
  /** Which instances to SIGKILL mid-run and start again (none: a steady run). */
  kill: string[];
  log?: (message: string) => void;
}

export interface ScaleReport {
  trucks: number;
  fixesSent: number;
  fixesAcknowledged: number;
  /** Positions stored after dedupe (FINAL) for the run's devices, and the rows before it. */
  positionsStored: number;
  positionRowsBeforeDedupe: number;
  missingFixes: number;
  unexpectedFixes: number;
  flagsExpected: number;
  flagsRaised: number;
  flagProblems: string[];
  flagEventsExpected: { opened: number; cleared: number };
  flagEventsStored: { opened: number; cleared: number };
  killed: string[];
  trackersCutOff: number;
  trackersReconnected: number;
  reconnectsTotal: number;
  groupMembers: Record<string, string[]>;
  /** Processes that exited while starting and were started again (as Kubernetes restarts a pod), by name. */
  failedStarts: Record<string, number>;
  /** Seconds of wall time: sending (first fix to last ack) and until every group caught up. */
  sendSeconds: number;
  settleSeconds: number;
  /** Acknowledged fixes per second of sending. */
  fixesPerSecond: number;
  /**
   * Per opened flag: milliseconds from its fix leaving the tracker to its journeyFlagOpened event
   * stored in the analytics store (inserted_at, the same machine's clock), ascending.
   */
  flagLatenciesMs: number[];
  /** With two gateways: sessions across them and the second one's socket frames (else undefined). */
  live: LiveReport | undefined;
  problems: string[];
}

/** Through the gateway, as the administrator. */
function apiOf(cluster: ScaleCluster) {
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(`${cluster.gateway.url}/api${path}`, {
        method,
        headers: { authorization: cluster.adminAuth, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(60_000),
      }).catch((err: unknown) => err as Error);
      // 502/503: an upstream still joining; GETs are retried, writes are not (they would duplicate)
      if (!(res instanceof Error) && res.ok) return (await res.json()) as T;
      const retry = method === 'GET' && attempt < 20 && (res instanceof Error || res.status >= 502);
      if (!retry) throw new Error(`${method} ${path}: ${res instanceof Error ? res.message : `${res.status} ${await res.text()}`}`);
      await new Promise((r) => setTimeout(r, 500));
    }
  };
}

/** Every partition of positions.v1 committed by each group at or past the end offsets. */
async function groupsCaughtUp(cluster: ScaleCluster, groups: string[]): Promise<boolean> {
  try {
    const ends = await endOffsets(cluster.admin, Topics.positions);
    for (const groupId of groups) {
      const at = (await committedOffsets(cluster.admin, groupId, [Topics.positions])).get(Topics.positions) ?? new Map<number, number>();
      if (![...ends].every(([partition, end]) => end === 0 || (at.get(partition) ?? -1) >= end)) return false;
    }
    return true;
  } catch {
    return false;
  }
}

export async function runScenario(cluster: ScaleCluster, opts: ScenarioOptions): Promise<ScaleReport> {
  if (opts.fixes % CYCLE !== 0 || opts.fixes < 3 * CYCLE) throw new Error('fixes: a multiple of 12, at least 36');
  const log = opts.log ?? (() => undefined);
  const api = apiOf(cluster);
  const problems: string[] = [];
  const ingestNames = [...cluster.gt06Ports.keys()];
  const ports = [...cluster.gt06Ports.values()];
  const t0 = Math.floor((Date.now() - 3 * 3600_000) / 3600_000) * 3600_000;

  const route = (await api<Route[]>('GET', '/routes?keyword=northern-corridor&limit=1'))[0];
  if (!route) throw new Error('no seeded northern-corridor route');
  const geometry = routeGeometry(route);
  const trucks: Truck[] = [];
  for (let i = 0; i < opts.trucks; i++) {
    const uniqueId = imeiOf(i);
    const device = await api<Device>('POST', '/devices', { name: `scale truck ${i}`, uniqueId });
    const journey = await api<Journey>('POST', '/journey', {
      deviceId: device.id,
      routeId: route.id,
      plannedDeparture: new Date(t0).toISOString(),
    });
    const home = i % ports.length;
    trucks.push({
      index: i,
      uniqueId,
      deviceId: device.id,
      journeyId: journey.id,
      detours: i % opts.detourEvery === 0,
      sender: trackerSender(uniqueId, ports, home),
      acked: [],
      sentAt: new Map(),
      home,
    });
  }
  log(
    `${trucks.length} devices and active-to-be journeys created through the gateway; ${trucks.filter((t) => t.detours).length} trucks detour`,
  );
  // with a second gateway: sessions shared by both, and a socket on the second one from before the first fix
  const sessionProblems = cluster.gateways.length > 1 ? await checkSessionsAcross(cluster) : [];
  const liveAcross = cluster.gateways.length > 1 ? await openLiveAcross(cluster) : undefined;

  // the middle third starts when every truck finished the first; the last third once the killed instances are back
  const third = opts.fixes / 3;
  let released = 2 * third;
  const gates: (() => void)[] = [];
  const waitGate = async (n: number): Promise<void> => {
    while (n >= released) await new Promise<void>((r) => gates.push(r));
  };
  const release = (upTo: number): void => {
    released = upTo;
    for (const g of gates.splice(0)) g();
  };
  const acked = (): number => trucks.reduce((s, t) => s + t.acked.length, 0);
  let sendStart = 0;
  const streams = trucks.map(async (truck) => {
    for (let n = 0; n < opts.fixes; n++) {
      await waitGate(n);
      const fix = fixOf(geometry, truck, n, t0);
      truck.sentAt.set(fix.time.getTime(), performance.timeOrigin + performance.now());
      if (!(await truck.sender.send(fix))) throw new Error(`${truck.uniqueId}: the sender gave up on fix ${n}`);
      truck.acked.push(fix.time.getTime());
    }
  });
  const streaming = Promise.all(streams);
  streaming.catch(() => undefined);
  const watch = async (what: string, cond: () => boolean | Promise<boolean>, ceilingMs = 300_000): Promise<void> =>
    until(
      what,
      async () => {
        const failure = cluster.failure();
        if (failure) throw new Error(failure);
        return cond();
      },
      ceilingMs,
    );

  sendStart = performance.now();
  const cutOff = new Set<Truck>();
  if (opts.kill.length) {
    await watch('a quarter into the middle third', () => acked() >= trucks.length * (third + third / 4));
    const victims = opts.kill.map((name) => cluster.byName(name));
    for (const t of trucks) if (opts.kill.includes(ingestNames[t.home]!)) cutOff.add(t);
    await Promise.all(victims.map((v) => v.kill('SIGKILL')));
    log(`SIGKILL ${opts.kill.join(', ')} at ${acked()} acknowledged fixes; ${cutOff.size} trackers lose their connection`);
    await watch('the middle third acknowledged', () => trucks.every((t) => t.acked.length >= 2 * third));
    await Promise.all(victims.map((v) => v.startUntilReady()));
    log(`${opts.kill.join(', ')} started again and ready`);
  }
  release(opts.fixes);
  await watch(
    'every fix acknowledged',
    async () => {
      await Promise.race([streaming, new Promise((r) => setTimeout(r, 200))]);
      return trucks.every((t) => t.acked.length === opts.fixes);
    },
    600_000,
  );
  await streaming;
  const sendSeconds = (performance.now() - sendStart) / 1000;
  const settleStart = performance.now();
  await watch(
    'every position consumer group past the end of positions.v1',
    () => groupsCaughtUp(cluster, [POSITION_WRITER_GROUP, JOURNEY_GROUP, GEOFENCE_GROUP]),
    600_000,
  );
  const settleSeconds = (performance.now() - settleStart) / 1000 + sendSeconds;
  log(`all ${acked()} fixes acknowledged in ${sendSeconds.toFixed(1)} s; consumers caught up`);

  // positions: exactly the acknowledged fixes, once each (after dedupe), per device
  const ch = cluster.analytics;
  const deviceIds = trucks.map((t) => t.deviceId);
  const rs = await ch.client.query({
    query: `SELECT device_id, groupArray(toUnixTimestamp64Milli(fix_time)) AS times FROM (SELECT device_id, fix_time FROM ${ch.database}.positions FINAL WHERE device_id IN {ids:Array(UInt64)}) GROUP BY device_id`,
    query_params: { ids: deviceIds },
    format: 'JSONEachRow',
  });
  const stored = new Map(
    (await rs.json<{ device_id: string | number; times: (string | number)[] }>()).map((r) => [Number(r.device_id), r.times.map(Number)]),
  );
  const raw = await ch.client.query({
    query: `SELECT count() AS n FROM ${ch.database}.positions WHERE device_id IN {ids:Array(UInt64)}`,
    query_params: { ids: deviceIds },
    format: 'JSONEachRow',
  });
  const positionRowsBeforeDedupe = Number((await raw.json<{ n: string }>())[0]?.n ?? 0);
  let missingFixes = 0;
  let unexpectedFixes = 0;
  let positionsStored = 0;
  for (const t of trucks) {
    const times = stored.get(t.deviceId) ?? [];
    positionsStored += times.length;
    const have = new Set(times);
    const want = new Set(t.acked);
    const missing = t.acked.filter((x) => !have.has(x)).length;
    const extra = times.length - times.filter((x) => want.has(x)).length;
    missingFixes += missing;
    unexpectedFixes += extra;
    if (missing || extra || times.length !== t.acked.length)
      problems.push(
        `device ${t.deviceId}: ${t.acked.length} acknowledged, ${times.length} stored (${missing} missing, ${extra} unexpected)`,
      );
  }

  // flags: each detouring journey exactly its off-corridor openings, nothing else anywhere
  const perJourney = expectedFlagChanges(opts.fixes);
  const flagProblems: string[] = [];
  let flagsRaised = 0;
  let flagsExpected = 0;
  for (const t of trucks) {
    const detail = await api<JourneyDetail>('GET', `/journey/${t.journeyId}?trackLimit=0`);
    const want = t.detours ? perJourney.opened : 0;
    flagsExpected += want;
    flagsRaised += detail.flags.length;
    const off = detail.flags.filter((f) => f.type === 'offCorridor').length;
    const others = detail.flags.filter((f) => f.type !== 'offCorridor').map((f) => f.type);
    if (off !== want || others.length)
      flagProblems.push(
        `journey ${t.journeyId}: ${off} offCorridor flags (want ${want})${others.length ? `, unexpected ${others.join(', ')}` : ''}`,
      );
    if (detail.journey.state !== 'active') flagProblems.push(`journey ${t.journeyId}: ${detail.journey.state}, not active`);
  }
  problems.push(...flagProblems);
  const detouring = trucks.filter((t) => t.detours).length;
  const flagEventsExpected = { opened: perJourney.opened * detouring, cleared: perJourney.cleared * detouring };
  const ev = await ch.client.query({
    query: `SELECT type, count() AS n FROM ${ch.database}.events FINAL WHERE device_id IN {ids:Array(UInt64)} AND type IN ('journeyFlagOpened', 'journeyFlagCleared') GROUP BY type`,
    query_params: { ids: deviceIds },
    format: 'JSONEachRow',
  });
  const evCounts = new Map((await ev.json<{ type: string; n: string }>()).map((r) => [r.type, Number(r.n)]));
  // fix → flag: the opening event's position id names the fix (device, fix time) that opened it
  const opened = await ch.client.query({
    query: `SELECT position_id, toUnixTimestamp64Milli(inserted_at) AS at FROM ${ch.database}.events FINAL WHERE device_id IN {ids:Array(UInt64)} AND type = 'journeyFlagOpened' AND position_id IS NOT NULL`,
    query_params: { ids: deviceIds },
    format: 'JSONEachRow',
  });
  const byDevice = new Map(trucks.map((t) => [t.deviceId, t]));
  const flagLatenciesMs = (await opened.json<{ position_id: string | number; at: string | number }>())
    .flatMap((r) => {
      const p = parsePositionId(Number(r.position_id));
      const sent = p && byDevice.get(p.deviceId)?.sentAt.get(p.fixTime.getTime());
      return sent === undefined || sent === null ? [] : [Number(r.at) - sent];
    })
    .sort((a, b) => a - b);
  const flagEventsStored = { opened: evCounts.get('journeyFlagOpened') ?? 0, cleared: evCounts.get('journeyFlagCleared') ?? 0 };
  if (flagEventsStored.opened !== flagEventsExpected.opened || flagEventsStored.cleared !== flagEventsExpected.cleared) {
    problems.push(`flag events in ClickHouse: ${JSON.stringify(flagEventsStored)}, want ${JSON.stringify(flagEventsExpected)}`);
  }

  // devices: every tracker cut off by the kill reconnected (to a live instance) and delivered the rest
  const reconnected = [...cutOff].filter((t) => t.sender.stats.reconnects >= 2 && t.acked.length === opts.fixes);
  if (reconnected.length !== cutOff.size)
    problems.push(`${cutOff.size - reconnected.length} trackers cut off by the kill did not reconnect`);
  // the instances started again are members of their groups again: a restarted member rejoins
  // once the group has dropped the killed one (its session timeout) and rebalanced, which on a
  // busy machine can come after the data has caught up; so wait for it (a ceiling, no timing)
  const expectMembers: [string, string][] = [
    [POSITION_WRITER_GROUP, 'ingest'],
    [JOURNEY_GROUP, 'journey'],
    [GEOFENCE_GROUP, 'geofence'],
  ];
  const wantMembers = (service: string): string[] =>
    cluster.processes
      .filter((p) => p.service === service)
      .map((p) => p.name)
      .sort();
  const groupMembers: Record<string, string[]> = {};
  const readGroups = async (): Promise<boolean> => {
    const described = await cluster.admin.describeGroups({ groups: [POSITION_WRITER_GROUP, JOURNEY_GROUP, GEOFENCE_GROUP] });
    for (const g of described.values()) groupMembers[g.id] = [...g.members.values()].map((m) => m.clientId).sort();
    return expectMembers.every(([group, service]) => JSON.stringify(groupMembers[group]) === JSON.stringify(wantMembers(service)));
  };
  // past the ceiling the groups as last read become problems below; a failure of the cluster (or of
  // reading the groups) thrown inside the wait is not the ceiling, and ends the run with its reason
  await watch('every instance a member of its groups again', readGroups, 120_000).catch((err: unknown) => {
    if (!(err instanceof CeilingPassed)) throw err;
  });
  for (const [group, service] of expectMembers) {
    const names = wantMembers(service);
    if (JSON.stringify(groupMembers[group]) !== JSON.stringify(names))
      problems.push(`group ${group}: members ${JSON.stringify(groupMembers[group])}, want ${JSON.stringify(names)}`);
  }
  for (const t of trucks) t.sender.close();

  let live: LiveReport | undefined;
  if (liveAcross) {
    try {
      live = await verifyLive(
        cluster,
        liveAcross,
        { positionIds: trucks.flatMap((t) => t.acked.map((at) => positionId(t.deviceId, at))), flagEvents: flagEventsExpected },
        watch,
        sessionProblems,
      );
    } finally {
      liveAcross.client.close();
    }
    problems.push(...live.problems);
    log(
      `${live.gateway}'s socket: ${live.positionFrames} position frames, ${live.flagEventFrames.opened}/${live.flagEventFrames.cleared} flag frames; closed ${live.closed}`,
    );
  }

  const fixesAcknowledged = acked();
  return {
    trucks: trucks.length,
    fixesSent: trucks.length * opts.fixes,
    fixesAcknowledged,
    positionsStored,
    positionRowsBeforeDedupe,
    missingFixes,
    unexpectedFixes,
    flagsExpected,
    flagsRaised,
    flagProblems,
    flagEventsExpected,
    flagEventsStored,
    killed: opts.kill,
    trackersCutOff: cutOff.size,
    trackersReconnected: reconnected.length,
    reconnectsTotal: trucks.reduce((s, t) => s + t.sender.stats.reconnects - 1, 0),
    groupMembers,
    failedStarts: Object.fromEntries(cluster.processes.filter((p) => p.failedStarts > 0).map((p) => [p.name, p.failedStarts])),
    sendSeconds,
    settleSeconds,
    fixesPerSecond: fixesAcknowledged / sendSeconds,
    flagLatenciesMs,
    live,
    problems,
  };
}

/** The counts, one per line, for the script and the test's output. */
export function formatReport(r: ScaleReport): string {
  return [
    `trucks                         ${r.trucks}`,
    `fixes sent / acknowledged      ${r.fixesSent} / ${r.fixesAcknowledged}`,
    `positions stored (deduped)     ${r.positionsStored}   (rows before dedupe: ${r.positionRowsBeforeDedupe})`,
    `missing / unexpected fixes     ${r.missingFixes} / ${r.unexpectedFixes}`,
    `flags expected / raised        ${r.flagsExpected} / ${r.flagsRaised}`,
    `flag events opened / cleared   ${r.flagEventsStored.opened} / ${r.flagEventsStored.cleared}   (want ${r.flagEventsExpected.opened} / ${r.flagEventsExpected.cleared})`,
    `killed and restarted           ${r.killed.join(', ') || 'none'}`,
    `trackers cut off / reconnected ${r.trackersCutOff} / ${r.trackersReconnected}   (reconnects in all: ${r.reconnectsTotal})`,
    `group members                  ${Object.entries(r.groupMembers)
      .map(([g, m]) => `${g}: ${m.join(' ')}`)
      .join('; ')}`,
    `failed starts, restarted      ${
      Object.entries(r.failedStarts)
        .map(([n, k]) => `${n} x${k}`)
        .join(', ') || 'none'
    }`,
    `fix → flag opened (ms)        ${r.flagLatenciesMs.length ? `p50 ${Math.round(r.flagLatenciesMs[Math.floor(r.flagLatenciesMs.length / 2)]!)}, max ${Math.round(r.flagLatenciesMs.at(-1)!)} over ${r.flagLatenciesMs.length} flags` : 'none traced'}`,
    `sending / until caught up      ${r.sendSeconds.toFixed(1)} s / ${r.settleSeconds.toFixed(1)} s   (${r.fixesPerSecond.toFixed(1)} acknowledged fixes/s)`,
    ...(r.live
      ? [
          `sessions across gateways       ${r.live.problems.some((p) => p.startsWith('session') || p.startsWith('signed out')) ? 'PROBLEM' : 'made through one, used and ended through the other'}`,
          `socket on ${r.live.gateway.padEnd(20)}${r.live.positionFrames} position frames (${r.live.missingFixes} fixes missing), flag frames opened/cleared ${r.live.flagEventFrames.opened}/${r.live.flagEventFrames.cleared}`,
          `frames beyond the bus / stray  ${r.live.duplicateFrames} / ${r.live.strayFrames}   (ids on the bus more than once: ${r.live.busRedeliveries})`,
        ]
      : []),
    r.problems.length ? `PROBLEMS (${r.problems.length}):\n  ${r.problems.join('\n  ')}` : 'no loss, no duplicate',
  ].join('\n');
}
