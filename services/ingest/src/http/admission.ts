import type { FastifyReply } from 'fastify';
import { AppError } from '@corridor/platform';
import type { IntakeGate } from '../positions/intake-gate';

/**
 * An HTTP position request through the intake gate: admitted only when the gate has room for its
 * fixes, else answered at once with 503 and Retry-After (the clients keep their fixes and retry:
 * Traccar Client does), instead of waiting in a queue behind everything else. A 503 because the
 * bus is down carries Retry-After too.
 */
export async function admitHttp<T>(gate: IntakeGate, fixes: number, reply: FastifyReply, work: () => Promise<T>): Promise<T> {
  if (!gate.tryAdmit(fixes, 'http')) {
    const seconds = gate.retryAfterSeconds();
    void reply.header('retry-after', String(seconds));
    throw new AppError('UNAVAILABLE', 'Ingest is overloaded; retry later', { retryAfterSeconds: seconds }, true);
  }
  try {
    return await work();
  } catch (err) {
    if (err instanceof AppError && err.code === 'UNAVAILABLE') void reply.header('retry-after', String(gate.retryAfterSeconds()));
    throw err;
  } finally {
    gate.release(fixes);
  }
}
