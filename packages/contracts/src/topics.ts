/** Kafka topics (see shared DESIGN.md). Keys are device ids unless noted. */
export const Topics = {
  positions: 'positions.v1',
  events: 'events.v1',
  devices: 'devices.v1',
  geofences: 'geofences.v1',
  // no journeys.v1: journey evaluators learn journeys from PostgreSQL and a per-device version
  // counter in the cache, checked every batch (services/journey/src/evaluator/device-journeys.ts)
  /** Ingest → ops-api: registration requests from unknown devices (UNKNOWN_DEVICES=pending), keyed by unique id. */
  devicesPending: 'devices.pending.v1',
  /** Ops → ingest: downlink commands for a device (src/commands.ts), keyed by device id. */
  commands: 'commands.v1',
  /** Ingest → ops-api: device connections opened, seen and closed (device-sessions.ts), keyed by device id. */
  deviceStatus: 'device-status.v1',
} as const;
export type TopicName = (typeof Topics)[keyof typeof Topics];
export const dlqTopic = (topic: string): string => `${topic}.dlq`;
/** Compacted topics carry the latest definition per key. */
export const compactedTopics: readonly string[] = [Topics.devices, Topics.geofences, Topics.devicesPending];
export const allTopics: readonly string[] = [
  ...Object.values(Topics),
  ...Object.values(Topics).map(dlqTopic),
];
