import { createHash } from 'node:crypto';
import type { Cache, Logger } from '@corridor/platform';
import { frameMetrics as m } from './frame-metrics';

/**
 * Event ids for alarms that arrive without a fix. Such a frame has no device time to build an id
 * from, and a device resends a frame it saw no acknowledgement for (the connection dropped between
 * our publish and our ack): the resent frame must become the SAME event, or the alarm is reported
 * twice. The first arrival of a frame's exact bytes claims an id in the cache (SET NX, for
 * `windowSeconds`); a resend within that window finds and reuses it. Different bytes are a new
 * alarm (GT06 frames carry a serial number; GPS103 `L` reports a minute-resolution time), so two
 * equal GPS103 alarms in one minute count once, as their frames are indistinguishable.
 * With the cache unavailable the arrival time is the id (a resend may then duplicate; counted).
 */
export class AlarmIdentity {
  constructor(private readonly cache: Cache, private readonly logger: Logger, private readonly windowSeconds = 3600) {}

  /** `kind` names the event type in the id (alarms, and command replies that came without a fix). */
  async idFor(deviceId: number, alarm: string, bytes: Buffer, receivedAt: Date, kind = 'alarm'): Promise<string> {
    const fresh = `${deviceId}-${kind}-${receivedAt.getTime()}-${alarm}`;
    const key = `ingest:alarm-frame:${deviceId}:${alarm}:${createHash('sha1').update(bytes).digest('base64url')}`;
    try {
      if (await this.cache.setIfAbsent(key, fresh, this.windowSeconds)) return fresh;
      const first = await this.cache.get(key);
      if (first) {
        m.alarmResends.inc();
        return first;
      }
      return fresh;
    } catch (err) {
      m.alarmIdFallbacks.inc();
      this.logger.warn({ err: (err as Error).message, deviceId }, 'cache unavailable: alarm id from its arrival time (a resend may duplicate it)');
      return fresh;
    }
  }
}
