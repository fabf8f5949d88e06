import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { topicsReadBy, topicsWrittenBy, topicUsage, type ServiceName } from '@corridor/contracts';
import { KAFKA_CLUSTER } from './kafka-topics';

/**
 * deploy/k8s/stores/kafka/users.yaml: a Strimzi KafkaUser per service (SCRAM-SHA-512; the User
 * Operator writes its password into a Secret of the same name) whose ACLs are exactly what the
 * topic map in packages/contracts (topicUsage) says the service does:
 *  - Read and Describe on each topic it consumes, Read on each of its consumer groups (literal, or
 *    a prefix for the per-instance groups `<prefix><uuid>`);
 *  - Write and Describe on each topic it produces and on the dead-letter topic of each it consumes.
 * No Create (topics come from KafkaTopic resources; a service only ensures they exist), no cluster
 * ACL (Kafka 3.x grants an idempotent producer's IdempotentWrite with Write on any topic, KIP-679).
 * `pnpm k8s:users` writes it; deploy/k8s/stores.test.ts fails when the file and the map differ.
 */
export const USERS_FILE = fileURLToPath(new URL('../../deploy/k8s/stores/kafka/users.yaml', import.meta.url));

export const kafkaUserName = (service: ServiceName): string => `corridor-${service}`;

interface Acl {
  resource: { type: 'topic' | 'group'; name: string; patternType: 'literal' | 'prefix' };
  operations: string[];
}

export function aclsOf(service: ServiceName): Acl[] {
  const read = new Set(topicsReadBy(service));
  const write = new Set(topicsWrittenBy(service));
  const topics = [...new Set([...read, ...write])].sort();
  const topicAcls: Acl[] = topics.map((name) => ({
    resource: { type: 'topic', name, patternType: 'literal' },
    operations: ['Describe', ...(read.has(name) ? ['Read'] : []), ...(write.has(name) ? ['Write'] : [])],
  }));
  const groups = [...new Map(topicUsage[service].consumes.map((c) => [`${c.group} ${c.perInstance}`, c])).values()].sort((a, b) =>
    a.group.localeCompare(b.group),
  );
  const groupAcls: Acl[] = groups.map((c) => ({
    resource: { type: 'group', name: c.group, patternType: c.perInstance ? 'prefix' : 'literal' },
    operations: ['Read'],
  }));
  return [...topicAcls, ...groupAcls];
}

export function kafkaUsersYaml(): string {
  const docs = (Object.keys(topicUsage) as ServiceName[]).map((service) =>
    stringify({
      apiVersion: 'kafka.strimzi.io/v1',
      kind: 'KafkaUser',
      metadata: { name: kafkaUserName(service), labels: { 'strimzi.io/cluster': KAFKA_CLUSTER } },
      spec: {
        authentication: { type: 'scram-sha-512' },
        authorization: { type: 'simple', acls: aclsOf(service) },
      },
    }),
  );
  return `# Generated from packages/contracts/src/topic-usage.ts (topicUsage) by tools/k8s/kafka-users.ts: do not edit.\n${docs.join('---\n')}`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) writeFileSync(USERS_FILE, kafkaUsersYaml());
