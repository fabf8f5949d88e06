import { planFleet, simDeviceIds, DEFAULT_TRUCKS } from './fleet';
import { OsmAndSender } from './osmand-client';
import { seededRandom } from './random';
import { Truck, type Fix, type Sender, type TruckPlan } from './truck';
import { gt06Codec, teltonikaCodec } from './senders/device-codecs';
import { TcpDeviceSender } from './senders/tcp-device-sender';
import { IncidentScript, type IncidentPlan } from './incidents';
import { truckReports } from './truck-reports';

export { simDeviceIds, DEFAULT_TRUCKS };

/** Protocols a simulated truck can speak: OsmAnd over HTTP, GT06 and Teltonika over TCP. */
export const SIM_PROTOCOLS = ['osmand', 'gt06', 'teltonika'] as const;
export type SimProtocol = (typeof SIM_PROTOCOLS)[number];
/** Ingest's device ports (Traccar's defaults). */
const DEFAULT_TCP_PORTS: Record<Exclude<SimProtocol, 'osmand'>, number> = { gt06: 5023, teltonika: 5027 };

export interface SimulatorOptions {
  trucks: number;
  /** OsmAnd HTTP endpoint of ingest, e.g. http://127.0.0.1:5055 */
  ingestUrl: string;
  /** Real time between two reports of one truck, ms. */
  intervalMs: number;
  /**
   * Simulated seconds per real second (1 = real time). Fixes carry the real time, so a truck covers
   * timeScale times the ground its speed says per real second: the speed reported is that ground
   * speed (timeScale × the driving speed), so positions and speeds agree.
   */
  timeScale?: number;
  deviceIds?: string[];
  log?: (msg: string) => void;
  /** Seed of the fleet layout and GPS noise; the same seed replays the same fleet. */
  seed?: number;
  /** Protocols the trucks speak, assigned round-robin (truck i speaks protocols[i % n]); default OsmAnd only. */
  protocols?: readonly SimProtocol[];
  /** Host of ingest's TCP device ports (default 127.0.0.1). */
  tcpHost?: string;
  /** TCP device ports per protocol (default GT06 5023, Teltonika 5027). */
  tcpPorts?: Partial<Record<Exclude<SimProtocol, 'osmand'>, number>>;
  /** Scripted incidents by device id (the demo's deviations). */
  incidents?: ReadonlyMap<string, IncidentPlan>;
  /** The trucks' plans (one per truck: `trucks` and `deviceIds` are then theirs); default: planned from the seed (simFleetPlans). */
  plans?: readonly TruckPlan[];
}

/** The default seed of the fleet's layout and GPS noise. */
const SIM_SEED = 20240501;

/** The plans the simulator makes for a fleet when given none (the same seed, the same fleet). */
export const simFleetPlans = (trucks: number, deviceIds = simDeviceIds(trucks), seed = SIM_SEED): TruckPlan[] =>
  planFleet({ trucks, random: seededRandom(seed), deviceIds });

export interface SimulatorHandle {
  /** Each truck's plan (device id, corridor, direction), in device order. */
  readonly plans: readonly TruckPlan[];
  stop(): Promise<void>;
  stats(): { sent: number; failed: number; byProtocol: Record<string, { sent: number; failed: number }> };
}

const MAX_LOGGED_FAILURES = 5;

/** Starts N trucks reporting over OsmAnd HTTP, each on its own timer staggered across the interval. */
export function startSimulator(opts: SimulatorOptions): SimulatorHandle {
  const { trucks: count, ingestUrl, intervalMs } = opts;
  const timeScale = opts.timeScale ?? 1;
  const log = opts.log ?? (() => undefined);
  if (!(intervalMs > 0)) throw new RangeError('intervalMs must be positive');
  if (!(timeScale > 0)) throw new RangeError('timeScale must be positive');

  const random = seededRandom(opts.seed ?? SIM_SEED);
  const plans = opts.plans ?? planFleet({ trucks: count, random, deviceIds: opts.deviceIds ?? simDeviceIds(count) });
  const protocols = opts.protocols?.length ? opts.protocols : (['osmand'] as const);
  for (const p of protocols) if (!SIM_PROTOCOLS.includes(p)) throw new RangeError(`unknown protocol ${p}`);
  let failuresLogged = 0;
  let failedSoFar = 0;
  const onFailure = (fix: Fix, reason: string): void => {
    failedSoFar++;
    if (failuresLogged++ < MAX_LOGGED_FAILURES) log(`sim: fix from ${fix.deviceId} not delivered: ${reason}`);
    else if (failuresLogged % 100 === 0) log(`sim: ${failedSoFar} fixes not delivered so far (last: ${reason})`);
  };
  const osmand = new OsmAndSender({ url: ingestUrl, onFailure });
  const tcpHost = opts.tcpHost ?? '127.0.0.1';
  const senders: (OsmAndSender | TcpDeviceSender)[] = [osmand];
  const senderFor = (protocol: SimProtocol, deviceId: string): Sender => {
    if (protocol === 'osmand') return osmand;
    const codec = protocol === 'gt06' ? gt06Codec(deviceId) : teltonikaCodec(deviceId);
    const sender = new TcpDeviceSender({ host: tcpHost, port: opts.tcpPorts?.[protocol] ?? DEFAULT_TCP_PORTS[protocol], codec, onFailure });
    senders.push(sender);
    return sender;
  };
  const trucks = plans.map((plan, i) => new Truck(plan, { sender: senderFor(protocols[i % protocols.length]!, plan.deviceId), random }));
  const stats = (): { sent: number; failed: number; byProtocol: Record<string, { sent: number; failed: number }> } => {
    const byProtocol: Record<string, { sent: number; failed: number }> = {};
    for (const s of senders) {
      const entry = (byProtocol[s.protocol] ??= { sent: 0, failed: 0 });
      entry.sent += s.stats.sent;
      entry.failed += s.stats.failed;
    }
    const all = Object.values(byProtocol);
    return { sent: all.reduce((n, e) => n + e.sent, 0), failed: all.reduce((n, e) => n + e.failed, 0), byProtocol };
  };
  const abort = new AbortController();
  const inFlight = new Set<Promise<void>>();
  const timers: NodeJS.Timeout[] = [];
  let stopped = false;

  trucks.forEach((truck, i) => {
    let busy = false;
    const plan = opts.incidents?.get(truck.deviceId);
    const script = plan ? new IncidentScript(plan, plans[i]!.corridor.id, Date.now(), timeScale) : undefined;
    const reports = truckReports(truck, script, timeScale, Date.now());
    const tick = (): void => {
      // not while the previous report is still retrying; none while the truck is silent
      const fix = reports(Date.now(), !busy && !stopped);
      if (!fix) return;
      busy = true;
      const sending = truck.sender.send(fix, abort.signal);
      const p = sending.then(() => {
        busy = false;
        inFlight.delete(p);
      });
      inFlight.add(p);
    };
    const offset = Math.floor((i * intervalMs) / Math.max(trucks.length, 1));
    timers.push(
      setTimeout(() => {
        if (stopped) return;
        tick();
        timers.push(setInterval(tick, intervalMs));
      }, offset),
    );
  });

  const where = protocols
    .map((p) => (p === 'osmand' ? `osmand ${ingestUrl}` : `${p} ${tcpHost}:${opts.tcpPorts?.[p] ?? DEFAULT_TCP_PORTS[p]}`))
    .join(', ');
  log(`sim: ${trucks.length} trucks reporting every ${intervalMs} ms (time x${timeScale}) over ${where}`);

  return {
    plans,
    async stop() {
      if (stopped) return;
      stopped = true;
      for (const t of timers) clearTimeout(t);
      abort.abort();
      await Promise.all([...inFlight]);
      for (const s of senders) if (s instanceof TcpDeviceSender) s.close();
      const { sent, failed } = stats();
      log(`sim: stopped; sent ${sent}, failed ${failed}`);
    },
    stats,
  };
}
