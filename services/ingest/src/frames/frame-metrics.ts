import { counter, gauge, histogram } from '@corridor/platform';

/**
 * Per-protocol device-port metrics. `ingest_frames_total` and `ingest_decode_errors_total` share
 * their names with the OsmAnd HTTP port (counter() returns the one registered instance).
 */
export const frameMetrics = {
  frames: counter('ingest_frames_total', 'Frames or requests received', ['protocol']),
  decodeErrors: counter('ingest_decode_errors_total', 'Frames or requests that failed to decode', ['protocol', 'reason']),
  ignored: counter(
    'ingest_frames_ignored_total',
    'Frames that decoded to nothing stored (a message type refused or not understood), by message type',
    ['protocol', 'type'],
  ),
  positions: counter('ingest_positions_decoded_total', 'Positions decoded from device frames', ['protocol']),
  dropped: counter('ingest_positions_dropped_total', 'Decoded positions not published, by reason (no_login, crc, unknown_device, ...)', [
    'protocol',
    'reason',
  ]),
  crcInvalid: counter('ingest_crc_invalid_total', 'Frames with a wrong checksum, by the action the CRC policy took', [
    'protocol',
    'action',
  ]),
  connections: gauge('ingest_connections', 'Open device connections', ['protocol']),
  connectionsOpened: counter('ingest_connections_opened_total', 'Device connections accepted', ['protocol']),
  connectionsClosed: counter('ingest_connections_closed_total', 'Device connections closed, by reason', ['protocol', 'reason']),
  connectionsRefused: counter(
    'ingest_connections_refused_total',
    'Connections refused at accept, by reason: max_connections (MAX_CONNECTIONS of that server open) or fd_budget (the open-file budget of the process spent)',
    ['protocol', 'reason'],
  ),
  ackLatency: histogram(
    'ingest_ack_latency_seconds',
    'Time from a frame arriving to its acknowledgement being written (includes the bus confirmation)',
    ['protocol'],
    [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60],
  ),
  batchLatency: histogram(
    'ingest_batch_seconds',
    "Time a connection's batch of frames spends in the durable path (identity, archive, intake, publish), the part of the ack latency after the frames waited for the connection's batch before",
    ['protocol'],
    [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60],
  ),
  acks: counter('ingest_acks_total', 'Acknowledgements written to devices', ['protocol']),
  publishRetries: counter('ingest_publish_retries_total', 'Publishes retried while the bus was unavailable (the ack is held)', [
    'protocol',
  ]),
  paused: counter('ingest_backpressure_pauses_total', 'Times a connection stopped reading because its frames were waiting for the bus', [
    'protocol',
  ]),
  alarmResends: counter(
    'ingest_alarm_resends_total',
    'Alarm frames without a fix received again (a resend) and stamped with their first arrival',
    [],
  ),
  alarmIdFallbacks: counter(
    'ingest_alarm_id_fallbacks_total',
    'Alarms without a fix stamped with their own arrival because the cache was unavailable',
    [],
  ),
  overload: counter('ingest_datagrams_dropped_total', 'UDP datagrams dropped unacknowledged because too many were waiting for the bus', [
    'protocol',
  ]),
};

/** The per-frame metrics of one protocol, bound to its label once (not per frame). */
export interface ProtocolFrameMetrics {
  frames: { inc(value?: number): void };
  acks: { inc(value?: number): void };
  ackLatency: { observe(value: number): void };
}
const bound = new Map<string, ProtocolFrameMetrics>();
export function protocolFrameMetrics(protocol: string): ProtocolFrameMetrics {
  let b = bound.get(protocol);
  if (!b) {
    b = {
      frames: frameMetrics.frames.labels({ protocol }),
      acks: frameMetrics.acks.labels({ protocol }),
      ackLatency: frameMetrics.ackLatency.labels({ protocol }),
    };
    bound.set(protocol, b);
  }
  return b;
}
