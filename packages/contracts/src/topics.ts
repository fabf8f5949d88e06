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
  /**
   * ops-api → gateway: an event a notification rule sends to a user's live feed (the web channel),
   * with its sentence in attributes.message (socket.ts WebNotificationMessage), keyed by user id.
   */
  webNotifications: 'notifications.web.v1',
} as const;
export type TopicName = (typeof Topics)[keyof typeof Topics];
export const dlqTopic = (topic: string): string => `${topic}.dlq`;
/** Compacted topics carry the latest definition per key. */
export const compactedTopics: readonly string[] = [Topics.devices, Topics.geofences, Topics.devicesPending];
export const allTopics: readonly string[] = [...Object.values(Topics), ...Object.values(Topics).map(dlqTopic)];

/**
 * How each topic is laid out in production: partitions (the ceiling on consumer instances of one
 * group: positions.v1's is the most journey or geofence instances that do work) and retention
 * (compacted topics keep the latest message per key instead). Services create missing topics with
 * these; deploy/k8s/stores declares a KafkaTopic per entry and a test keeps the two equal.
 * deploy/SCALING.md says when to raise the partitions.
 */
export interface TopicPlan {
  readonly name: string;
  readonly partitions: number;
  /** Milliseconds a message is kept; null for a compacted topic. */
  readonly retentionMs: number | null;
  readonly compacted: boolean;
}
const DAY_MS = 86_400_000;
/** retentionDays null for the compacted topics (compactedTopics). */
const planOf = (name: string, partitions: number, retentionDays: number | null): TopicPlan => ({
  name,
  partitions,
  retentionMs: retentionDays === null ? null : retentionDays * DAY_MS,
  compacted: compactedTopics.includes(name),
});
export const topicPlan: readonly TopicPlan[] = [
  planOf(Topics.positions, 12, 7),
  planOf(Topics.events, 12, 7),
  planOf(Topics.devices, 6, null),
  planOf(Topics.geofences, 3, null),
  planOf(Topics.devicesPending, 3, null),
  planOf(Topics.commands, 6, 1),
  // connection news is only worth its first minutes: a day covers any consumer outage worth replaying
  planOf(Topics.deviceStatus, 6, 1),
  // a web notification is for the sockets open now: a day covers any gateway outage worth replaying
  planOf(Topics.webNotifications, 6, 1),
  ...Object.values(Topics).map((t) => planOf(dlqTopic(t), 3, 14)),
];
