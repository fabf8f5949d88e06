import { EventMessage, Topics, type PositionMessage } from '@corridor/contracts';
import { AppError, counter, histogram, type Bus } from '@corridor/platform';

const published = counter('ingest_positions_published_total', 'Positions confirmed by the bus', ['protocol']);
const publishFailures = counter('ingest_publish_failures_total', 'Publishes the bus refused or timed out', ['topic']);
const publishLatency = histogram('ingest_publish_seconds', 'Time from publish to bus confirmation (ack latency)', ['topic']);

/**
 * Publishes positions (keyed by device id) and the alarm events they carry. Resolves only once the
 * bus confirmed them; a bus failure becomes a retryable 503 so nothing is acknowledged that is not durable.
 */
export async function publishPositions(bus: Bus, positions: PositionMessage[]): Promise<void> {
  if (!positions.length) return;
  const end = publishLatency.startTimer({ topic: Topics.positions });
  try {
    await bus.publish(Topics.positions, positions.map((p) => ({ key: String(p.deviceId), value: p })));
    const alarms = positions.filter((p) => p.alarm).map(alarmEvent);
    if (alarms.length) await bus.publish(Topics.events, alarms.map((e) => ({ key: String(e.deviceId), value: e })));
  } catch (err) {
    publishFailures.inc({ topic: Topics.positions });
    throw new AppError('UNAVAILABLE', 'The event bus is unavailable; retry later', { cause: err instanceof Error ? err.message : String(err) }, true);
  } finally {
    end();
  }
  for (const p of positions) published.inc({ protocol: p.protocol });
}

/** Alarms reported by the device itself become events.v1 'alarm' events, as Traccar does. */
export function alarmEvent(p: PositionMessage): EventMessage {
  return {
    id: `${p.deviceId}-alarm-${Date.parse(p.fixTime)}-${p.alarm}`,
    type: 'alarm',
    eventTime: p.fixTime,
    deviceId: p.deviceId,
    positionId: p.id,
    journeyId: null,
    geofenceId: null,
    latitude: p.latitude,
    longitude: p.longitude,
    attributes: { alarm: p.alarm },
  };
}
