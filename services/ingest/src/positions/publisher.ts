import { EventMessage, PositionMessage, Topics, isParsedPositionMessage } from '@corridor/contracts';
import { AppError, counter, histogram, publishValidated, type Bus } from '@corridor/platform';

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
    // checked here on the in-process bus (in an ingest thread of the one-process stack), not by each consumer on the main thread
    await publishValidated(
      bus,
      Topics.positions,
      PositionMessage,
      positions.map((p) => ({ key: String(p.deviceId), value: p })),
      isParsedPositionMessage,
    );
    const events = reportedEvents(positions);
    if (events.length)
      await publishValidated(
        bus,
        Topics.events,
        EventMessage,
        events.map((e) => ({ key: String(e.deviceId), value: e })),
      );
  } catch (err) {
    publishFailures.inc({ topic: Topics.positions });
    throw new AppError(
      'UNAVAILABLE',
      'The event bus is unavailable; retry later',
      { cause: err instanceof Error ? err.message : String(err) },
      true,
    );
  } finally {
    end();
  }
  // one increment per protocol of the call (a batch is usually one protocol), not one per position
  let protocol = positions[0]!.protocol;
  let count = 0;
  for (const p of positions) {
    if (p.protocol !== protocol) {
      published.inc({ protocol }, count);
      protocol = p.protocol;
      count = 0;
    }
    count++;
  }
  published.inc({ protocol }, count);
}

/** The events the devices reported with these positions (alarms, command replies); the position store keeps them too. */
export function reportedEvents(positions: PositionMessage[]): EventMessage[] {
  return [...positions.filter((p) => p.alarm).map(alarmEvent), ...positions.filter(hasCommandResult).map(commandResultEvent)];
}

function hasCommandResult(p: PositionMessage): boolean {
  return typeof p.attributes.result === 'string';
}

/** A position carrying a command reply (Traccar's `result` attribute, e.g. H02 V4) is also a commandResult event, as in Traccar. */
export function commandResultEvent(p: PositionMessage): EventMessage {
  return positionEvent(p, 'commandResult', `${p.deviceId}-commandResult-${Date.parse(p.fixTime)}`, { result: p.attributes.result });
}

/** Alarms reported by the device itself become events.v1 'alarm' events, as Traccar does. */
export function alarmEvent(p: PositionMessage): EventMessage {
  return positionEvent(p, 'alarm', `${p.deviceId}-alarm-${Date.parse(p.fixTime)}-${p.alarm}`, { alarm: p.alarm });
}

function positionEvent(p: PositionMessage, type: EventMessage['type'], id: string, attributes: Record<string, unknown>): EventMessage {
  return {
    id,
    type,
    eventTime: p.fixTime,
    deviceId: p.deviceId,
    positionId: p.id,
    journeyId: null,
    geofenceId: null,
    latitude: p.latitude,
    longitude: p.longitude,
    attributes,
  };
}
