import { createHash } from 'node:crypto';
import type { Cache, Logger } from '@corridor/platform';
import { frameMetrics as m } from './frame-metrics';

/**
 * The time of an alarm that arrives without a fix and without a time of the device's own. Such a
 * frame becomes a state record stamped with its arrival, and a device resends a frame it saw no
 * acknowledgement for (the connection dropped between our publish and our ack): the resent frame
 * must become the SAME record (same position id, same alarm event), or the alarm is reported twice.
 * The first arrival of a frame's exact bytes claims its time in the cache (SET NX, for
 * `windowSeconds`); a resend within that window finds and reuses it. Different bytes are a new
 * alarm (GT06 frames carry a serial number; GPS103 `L` reports a minute-resolution time), so two
 * equal GPS103 alarms in one minute count once, as their frames are indistinguishable.
 * With the cache unavailable the arrival time is used (a resend may then duplicate; counted).
 */
export class AlarmIdentity {
  constructor(
    private readonly cache: Cache,
    private readonly logger: Logger,
    private readonly windowSeconds = 3600,
  ) {}

  async arrivalOf(deviceId: number, bytes: Buffer, receivedAt: Date): Promise<Date> {
    const key = `ingest:alarm-frame:${deviceId}:${createHash('sha1').update(bytes).digest('base64url')}`;
    try {
      if (await this.cache.setIfAbsent(key, String(receivedAt.getTime()), this.windowSeconds)) return receivedAt;
      const first = Number(await this.cache.get(key));
      if (Number.isFinite(first) && first > 0) {
        m.alarmResends.inc();
        return new Date(first);
      }
      return receivedAt;
    } catch (err) {
      m.alarmIdFallbacks.inc();
      this.logger.warn(
        { err: (err as Error).message, deviceId },
        'cache unavailable: alarm stamped with its arrival (a resend may duplicate it)',
      );
      return receivedAt;
    }
  }
}
