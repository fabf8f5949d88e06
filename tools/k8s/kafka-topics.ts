import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { topicPlan } from '@corridor/contracts';

/**
 * deploy/k8s/stores/kafka/topics.yaml: a Strimzi KafkaTopic per topic of the plan in
 * packages/contracts (partitions, retention or compaction), so the cluster's topics are the ones
 * the services would create. `pnpm k8s:topics` writes it; deploy/k8s/validate.test.ts fails when
 * the file and the plan differ.
 */
export const TOPICS_FILE = fileURLToPath(new URL('../../deploy/k8s/stores/kafka/topics.yaml', import.meta.url));
/** The Strimzi Kafka resource the topics belong to (deploy/k8s/stores/kafka/kafka.yaml). */
export const KAFKA_CLUSTER = 'corridor';

export function kafkaTopicsYaml(): string {
  const docs = topicPlan.map((t) =>
    stringify({
      apiVersion: 'kafka.strimzi.io/v1',
      kind: 'KafkaTopic',
      metadata: { name: t.name.replace(/[^a-z0-9.-]/g, '-'), labels: { 'strimzi.io/cluster': KAFKA_CLUSTER } },
      spec: {
        topicName: t.name,
        partitions: t.partitions,
        replicas: 3,
        config: {
          'min.insync.replicas': 2,
          ...(t.compacted ? { 'cleanup.policy': 'compact' } : { 'cleanup.policy': 'delete', 'retention.ms': t.retentionMs }),
        },
      },
    }),
  );
  return `# Generated from packages/contracts/src/topics.ts (topicPlan) by tools/k8s/kafka-topics.ts: do not edit.\n${docs.join('---\n')}`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) writeFileSync(TOPICS_FILE, kafkaTopicsYaml());
