import { pino, type Logger, type LoggerOptions } from 'pino';

export type { Logger };

/** pino JSON logs; children carry { service }, then { reqId } or { protocol, deviceId, remote }. */
export function createLogger(service: string, level: string = process.env.LOG_LEVEL ?? 'info', opts: LoggerOptions = {}): Logger {
  return pino({
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'password', '*.password'], censor: '[redacted]' },
    ...opts,
  });
}
