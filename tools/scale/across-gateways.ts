import { Topics, topicUsage } from '@corridor/contracts';
import { committedOffsets, eventNumericId } from '@corridor/platform';
import { endOffsets, tallyTopic } from './bus-tally';
import type { ScaleCluster } from './cluster';
import { getWithCookie, LiveClient, signIn, signOut } from './live-client';

/**
 * Two gateways, one platform: a session made through one gateway works through the other (sessions
 * live in Redis), a sign-out through one ends it on both, and a socket client on the second gateway
 * receives every position and event frame once per id on the bus, whichever ingest or journey
 * instance caused it.
 */
export interface LiveReport {
  /** The gateway the socket client is connected to (not the one it signed in through). */
  gateway: string;
  /** Sessions across the gateways, then frames against the bus. */
  problems: string[];
  positionFrames: number;
  /** Acknowledged fixes whose position never reached the socket. */
  missingFixes: number;
  flagEventFrames: { opened: number; cleared: number };
  /** Frames beyond the messages on the bus (a second gateway or a second consumer would add them). */
  duplicateFrames: number;
  /** Frames whose id is not on the bus at all. */
  strayFrames: number;
  /** Ids on positions.v1 / events.v1 more than once (a fix re-sent after its ingest died): the gateway still sends one frame. */
  busRedeliveries: number;
  closed: string;
}

/** Sign-in through A, the session used through B; a session made through B ended through A. */
export async function checkSessionsAcross(cluster: ScaleCluster): Promise<string[]> {
  const [a, b] = cluster.gateways;
  if (!a || !b) throw new Error('two gateways needed');
  const problems: string[] = [];
  const viaA = await signIn(a.url, cluster.adminLogin);
  const session = await getWithCookie(b.url, '/session', viaA);
  if (session.status !== 200 || (session.body as { email?: string }).email !== cluster.adminLogin.email)
    problems.push(`session made through ${a.name}, GET /api/session through ${b.name}: ${session.status}`);
  const devices = await getWithCookie(b.url, '/devices?limit=1', viaA);
  if (devices.status !== 200) problems.push(`session made through ${a.name}, GET /api/devices through ${b.name}: ${devices.status}`);
  const viaB = await signIn(b.url, cluster.adminLogin);
  const before = await getWithCookie(a.url, '/session', viaB);
  if (before.status !== 200) problems.push(`session made through ${b.name}, GET /api/session through ${a.name}: ${before.status}`);
  const out = await signOut(a.url, viaB);
  // (GET /api/session answers 404 without a session, as Traccar's does; a list answers 401)
  const after = await getWithCookie(b.url, '/devices?limit=1', viaB);
  if (out !== 204 || after.status !== 401)
    problems.push(`signed out through ${a.name} (${out}): GET /api/devices with the session answers ${after.status} through ${b.name}`);
  return problems;
}

export interface LiveAcross {
  client: LiveClient;
  /** The end offsets of positions.v1 and events.v1 once the socket was open: what the socket must show starts there. */
  from: Map<string, Map<number, number>>;
}

/**
 * Signs in through the first gateway and opens the socket on the second, before any fix is sent. The
 * bus's end offsets are read before and after the socket opens: if a message came in between (the
 * socket may or may not have it), the socket is opened again, so that what it must show starts
 * exactly at `from`.
 */
export async function openLiveAcross(cluster: ScaleCluster): Promise<LiveAcross> {
  const [a, b] = cluster.gateways;
  if (!a || !b) throw new Error('two gateways needed');
  const cookie = await signIn(a.url, cluster.adminLogin);
  const ends = async (): Promise<Map<string, Map<number, number>>> =>
    new Map(await Promise.all([Topics.positions, Topics.events].map(async (t) => [t, await endOffsets(cluster.admin, t)] as const)));
  const same = (x: Map<string, Map<number, number>>, y: Map<string, Map<number, number>>): boolean =>
    JSON.stringify([...x].map(([t, m]) => [t, [...m]])) === JSON.stringify([...y].map(([t, m]) => [t, [...m]]));
  for (let attempt = 1; ; attempt++) {
    const before = await ends();
    const client = await LiveClient.open(b.url, cookie);
    const after = await ends();
    if (same(before, after)) return { client, from: after };
    client.close();
    if (attempt >= 10) throw new Error('the bus never stood still while the socket opened');
  }
}

/**
 * The gateway's live-feed groups of one gateway process (per-instance names: a prefix from the topic
 * map and a uuid), found by their members' client id, each with the topic it reads.
 */
async function liveGroupsOf(cluster: ScaleCluster, clientId: string): Promise<{ groupId: string; topic: string }[]> {
  const live = topicUsage.gateway.consumes.filter((c) => c.perInstance && (c.topic === Topics.positions || c.topic === Topics.events));
  const groups = await cluster.admin.listGroups();
  const candidates = [...groups.keys()].filter((g) => live.some((c) => g.startsWith(c.group)));
  const described = await cluster.admin.describeGroups({ groups: candidates });
  return [...described.values()]
    .filter((g) => g.members.size > 0 && [...g.members.values()].every((m) => m.clientId === clientId))
    .map((g) => ({ groupId: g.id, topic: live.find((c) => g.id.startsWith(c.group))!.topic }));
}

/**
 * The group committed up to `to` on each partition that received messages since `from` (a group
 * that starts at the latest offset commits nothing on a partition until a message comes).
 */
async function caughtUp(
  cluster: ScaleCluster,
  groupId: string,
  topic: string,
  from: Map<number, number>,
  to: Map<number, number>,
): Promise<boolean> {
  const at = (await committedOffsets(cluster.admin, groupId, [topic])).get(topic) ?? new Map<number, number>();
  return [...to].every(([partition, end]) => end <= (from.get(partition) ?? 0) || (at.get(partition) ?? -1) >= end);
}

/**
 * After the run: waits until the socket has a frame for every acknowledged fix and every expected
 * flag event, then until the second gateway's live-feed groups have committed past the end of
 * positions.v1 and events.v1 (it commits a batch after sending its frames), then stops that gateway
 * (SIGTERM): its close frame follows every frame it sent, so once the socket is closed nothing more
 * can arrive. Then compares the frames with the messages on the bus, id by id.
 */
export async function verifyLive(
  cluster: ScaleCluster,
  { client, from }: LiveAcross,
  want: { positionIds: number[]; flagEvents: { opened: number; cleared: number } },
  watch: (what: string, cond: () => boolean | Promise<boolean>, ceilingMs?: number) => Promise<void>,
  sessionProblems: string[],
): Promise<LiveReport> {
  const b = cluster.gateways[1]!;
  const problems = [...sessionProblems];
  const flagFrames = (): { opened: number; cleared: number } => {
    const out = { opened: 0, cleared: 0 };
    for (const e of client.events.values()) {
      if (e.type === 'journeyFlagOpened') out.opened++;
      if (e.type === 'journeyFlagCleared') out.cleared++;
    }
    return out;
  };
  const missing = (): number => want.positionIds.filter((id) => !client.positions.has(id)).length;
  await watch(`a frame on ${b.name}'s socket for every acknowledged fix and flag event`, () => {
    const f = flagFrames();
    return missing() === 0 && f.opened >= want.flagEvents.opened && f.cleared >= want.flagEvents.cleared;
  }).catch((err: unknown) => problems.push(err instanceof Error ? err.message : String(err)));
  // the messages to compare end where the gateway's groups were seen caught up (`to`): events keep
  // coming after (the trackers' connections closing become deviceOffline events), and those may or
  // may not reach the socket before it closes
  let to = new Map<string, Map<number, number>>();
  await watch(`${b.name}'s live-feed groups past the end of positions.v1 and events.v1`, async () => {
    const groups = await liveGroupsOf(cluster, b.name).catch(() => []);
    if (groups.length !== 2) return false;
    to = new Map(await Promise.all([...from.keys()].map(async (t) => [t, await endOffsets(cluster.admin, t)] as const)));
    for (const g of groups)
      if (!(await caughtUp(cluster, g.groupId, g.topic, from.get(g.topic)!, to.get(g.topic)!).catch(() => false))) return false;
    return true;
  });
  await b.kill('SIGTERM');
  await watch(`${b.name}'s socket closed`, () => client.closed !== undefined, 60_000);

  const tally = (topic: string, start: Map<number, number>, end?: Map<number, number>): Promise<Map<string, number>> =>
    tallyTopic(cluster.broker.brokers, cluster.admin, topic, start, end);
  const busPositions = await tally(Topics.positions, from.get(Topics.positions)!, to.get(Topics.positions));
  // an event's frame carries its numeric id (derived from the key the bus carries)
  const byNumericId = (m: Map<string, number>): Map<string, number> => new Map([...m].map(([key, n]) => [String(eventNumericId(key)), n]));
  const busEvents = byNumericId(await tally(Topics.events, from.get(Topics.events)!, to.get(Topics.events)));
  const latePositions = await tally(Topics.positions, to.get(Topics.positions)!);
  const lateEvents = byNumericId(await tally(Topics.events, to.get(Topics.events)!));
  let duplicateFrames = 0;
  let strayFrames = 0;
  // each id on the bus up to `to` gives exactly one frame (the gateway drops a message whose id it
  // passed on already: a fix re-sent after its ingest died is on the bus twice); one only after `to`, one frame at most
  const compare = (frames: Map<string, number>, bus: Map<string, number>, late: Map<string, number>, what: string): void => {
    for (const [id, n] of frames) {
      const least = bus.has(id) ? 1 : 0;
      const most = least || late.has(id) ? 1 : 0;
      if (most === 0) strayFrames += n;
      else if (n > most) duplicateFrames += n - most;
      if (n < least || n > most)
        problems.push(`${what} ${id}: ${n} frames on ${b.name}'s socket, ${least} messages on the bus (${most - least} more after)`);
    }
    for (const [id, n] of bus) if (!frames.has(id)) problems.push(`${what} ${id}: ${n} messages on the bus, no frame`);
  };
  compare(new Map([...client.positions].map(([id, n]) => [String(id), n])), busPositions, latePositions, 'position');
  compare(new Map([...client.events].map(([id, e]) => [id, e.n])), busEvents, lateEvents, 'event');
  const redeliveries = [...busPositions.values(), ...busEvents.values()].reduce((s, n) => s + n - 1, 0);
  const flags = flagFrames();
  if (flags.opened !== want.flagEvents.opened || flags.cleared !== want.flagEvents.cleared)
    problems.push(`flag events on ${b.name}'s socket: ${JSON.stringify(flags)}, want ${JSON.stringify(want.flagEvents)}`);
  if (client.unreadable) problems.push(`${client.unreadable} unreadable frames on ${b.name}'s socket`);
  if (client.snapshotPositions !== 0) problems.push(`the snapshot before any fix held ${client.snapshotPositions} positions`);
  if (client.closed?.code !== 1001)
    problems.push(`${b.name}'s socket closed with ${client.closed?.code} ${client.closed?.reason}, not 1001 (shutting down)`);
  return {
    gateway: b.name,
    problems,
    positionFrames: [...client.positions.values()].reduce((s, n) => s + n, 0),
    missingFixes: missing(),
    flagEventFrames: flags,
    duplicateFrames,
    strayFrames,
    busRedeliveries: redeliveries,
    closed: `${client.closed?.code} ${client.closed?.reason}`,
  };
}
