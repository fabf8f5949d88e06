import type { ServiceName } from './endpoint';
import { dlqTopic, Topics, type TopicName } from './topics';

/**
 * Which service produces and consumes which Kafka topic, with its consumer groups: the one place
 * that says so. From it, each service ensures at start only the topics it uses (platform
 * createAdapters) and deploy/k8s/stores/kafka/users.yaml gives each service's KafkaUser exactly
 * these ACLs (tools/k8s/kafka-users.ts). A test (topic-usage.test.ts) reads the services' sources
 * and fails when their publish/subscribe calls and this map part ways.
 */

export interface ConsumerGroupUse {
  topic: TopicName;
  /** The group id, or its prefix when each instance has a group of its own (`<prefix><random uuid>`: every instance sees every message). */
  group: string;
  perInstance: boolean;
}

export interface TopicUse {
  produces: readonly TopicName[];
  consumes: readonly ConsumerGroupUse[];
}

const shared = (topic: TopicName, group: string): ConsumerGroupUse => ({ topic, group, perInstance: false });
const perInstance = (topic: TopicName, prefix: string): ConsumerGroupUse => ({ topic, group: prefix, perInstance: true });

export const topicUsage: Readonly<Record<ServiceName, TopicUse>> = {
  gateway: {
    produces: [],
    consumes: [
      perInstance(Topics.positions, 'gateway-live-positions-'),
      perInstance(Topics.events, 'gateway-live-events-'),
      perInstance(Topics.webNotifications, 'gateway-live-notifications-'),
      perInstance(Topics.devices, 'gateway-devices-'),
    ],
  },
  ingest: {
    produces: [Topics.positions, Topics.events, Topics.devicesPending, Topics.deviceStatus],
    consumes: [
      shared(Topics.positions, 'position-writer'),
      perInstance(Topics.devices, 'ingest-registry-'),
      shared(Topics.commands, 'ingest-commands'),
      perInstance(Topics.commands, 'ingest-commands-live-'),
    ],
  },
  journey: {
    produces: [Topics.events],
    consumes: [shared(Topics.positions, 'journey-evaluator')],
  },
  geofence: {
    produces: [Topics.events, Topics.geofences],
    consumes: [
      shared(Topics.positions, 'geofence-evaluator'),
      shared(Topics.positions, 'geofence-observatory'),
      perInstance(Topics.devices, 'geofence-devices-'),
      perInstance(Topics.geofences, 'geofence-definitions-'),
    ],
  },
  'ops-api': {
    produces: [Topics.events, Topics.devices, Topics.commands, Topics.webNotifications],
    consumes: [
      shared(Topics.events, 'ops-api.notification-rules'),
      shared(Topics.events, 'ops-api-ratings'),
      shared(Topics.positions, 'device-state'),
      shared(Topics.deviceStatus, 'device-state-sessions'),
      perInstance(Topics.geofences, 'ops-speed-limit-fences-'),
    ],
  },
};

/** The topics a service writes: what it produces, and the dead-letter topic of each topic it consumes (platform consumeValidated). */
export function topicsWrittenBy(service: ServiceName): string[] {
  const u = topicUsage[service];
  return [...new Set<string>([...u.produces, ...u.consumes.map((c) => dlqTopic(c.topic))])].sort();
}

/** The topics a service reads. */
export function topicsReadBy(service: ServiceName): string[] {
  return [...new Set<string>(topicUsage[service].consumes.map((c) => c.topic))].sort();
}

/** Every topic a service touches (reads or writes). */
export function topicsOf(service: ServiceName): string[] {
  return [...new Set([...topicsReadBy(service), ...topicsWrittenBy(service)])].sort();
}
