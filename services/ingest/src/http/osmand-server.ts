import formbody from '@fastify/formbody';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, counter, createApp, type App, type Logger } from '@corridor/platform';
import { DecodeError } from '../protocols/protocol';
import { PROTOCOL, decodeJson, decodeParams, type OsmAndFix } from '../protocols/osmand';
import type { PositionIntake } from '../positions/intake';
import type { DeviceRegistry } from '../devices/device-registry';
import type { DeviceIdentity } from '../frames/identity';
import type { IntakeGate } from '../positions/intake-gate';
import type { ConnectionBudget } from '../tcp/connection-budget';
import { admitHttp } from './admission';

const decodeErrors = counter('ingest_decode_errors_total', 'Frames or requests that failed to decode', ['protocol', 'reason']);
const frames = counter('ingest_frames_total', 'Frames or requests received', ['protocol']);

/**
 * The OsmAnd device port (5055): GET or POST with query or form parameters, or a JSON body.
 * 200 only after the position is on the bus; 400 names the wrong field; 503 with Retry-After when
 * the bus is down or ingest has more pending than it can publish in time (the app keeps the fix
 * and retries).
 */
export async function buildOsmAndServer(opts: {
  logger: Logger;
  intake: PositionIntake;
  gate: IntakeGate;
  fdBudget: ConnectionBudget;
  now: () => Date;
  /** The protocol binding of the device (frames/identity.ts): a device bound to another protocol is refused with 403. */
  identity: DeviceIdentity;
  registry: DeviceRegistry;
}): Promise<App> {
  const app = createApp({ name: 'ingest-osmand', logger: opts.logger, ops: false, bodyLimit: 64 * 1024 });
  // device connections take from the process's open-file budget like the TCP ports
  app.server.on('connection', (socket: Socket) => {
    if (!opts.fdBudget.take(PROTOCOL)) {
      socket.destroy();
      return;
    }
    socket.once('close', () => opts.fdBudget.release());
  });
  await app.register(formbody);
  const handle = async (req: FastifyRequest, reply: FastifyReply, fix: () => OsmAndFix): Promise<void> => {
    frames.inc({ protocol: PROTOCOL });
    let decoded: OsmAndFix;
    try {
      decoded = fix();
    } catch (err) {
      if (err instanceof DecodeError) {
        decodeErrors.inc({ protocol: PROTOCOL, reason: err.reason });
        throw new AppError('VALIDATION_FAILED', err.message, { reason: err.reason });
      }
      throw err;
    }
    const device = await opts.registry.lookup(decoded.uniqueId);
    if (device && !(await opts.identity.checkProtocol(device, PROTOCOL, `${req.ip}:${req.socket.remotePort ?? 0}`))) {
      throw new AppError('FORBIDDEN', `Device ${decoded.uniqueId} reports on another protocol`, { reason: 'identity_protocol' });
    }
    await admitHttp(opts.gate, 1, reply, () => opts.intake.accept([decoded], { protocol: PROTOCOL }));
  };
  const params = (query: unknown, body: unknown): Record<string, string | string[] | undefined> => ({
    ...(query as Record<string, string>),
    ...(body && typeof body === 'object' ? (body as Record<string, string>) : {}),
  });
  app.get('/*', async (req, reply) => {
    await handle(req, reply, () => decodeParams(params(req.query, undefined), opts.now()));
    return reply.code(200).send('');
  });
  app.post('/*', async (req, reply) => {
    const ct = req.headers['content-type'] ?? '';
    await handle(req, reply, () =>
      ct.includes('application/json') ? decodeJson(req.body, opts.now()) : decodeParams(params(req.query, req.body), opts.now()),
    );
    return reply.code(200).send('');
  });
  return app;
}
