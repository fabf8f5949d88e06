import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// deploy/ is no workspace package: the workspace's modules by path
import { topicPlan } from '../../packages/contracts/src/topics';
import { topicsOf, topicsReadBy, topicsWrittenBy, topicUsage } from '../../packages/contracts/src/topic-usage';
import type { ServiceName } from '../../packages/contracts/src/endpoint';
import { BaseEnv, parseConfig } from '../../packages/platform/src/config';
import { kafkaSecurity, redisTarget } from '../../packages/platform/src/adapters/store-connections';
import { kafkaTopicsYaml, TOPICS_FILE } from '../../tools/k8s/kafka-topics';
import { kafkaUsersYaml, USERS_FILE } from '../../tools/k8s/kafka-users';
import { isDeployment, type Deployment, type K8sObject } from './manifest-invariants';
import { hasKubectl, render } from './render';

/**
 * The stores component (deploy/k8s/stores) as the prod overlay renders it. The Strimzi resources are
 * also validated against Strimzi's CRD schemas (crd-schemas.test.ts); the other operators' CRDs cannot
 * be had on this machine (no registry ships them), so these tests check the fields Corridor relies
 * on, and that the services are wired to what the operators create: the Services'
 * names the operators derive from the resources' names, the Secrets they write, the ports.
 * Operator versions: Strimzi 1.2.0, CloudNativePG 1.25.1, Altinity clickhouse-operator 0.24.2,
 * Spotahome redis-operator 1.2.4 (deploy/README.md).
 */
type Obj = K8sObject & { spec: any; metadata: K8sObject['metadata'] & { namespace?: string; annotations?: Record<string, string> } }; // eslint-disable-line @typescript-eslint/no-explicit-any
const SERVICES = ['gateway', 'ingest', 'journey', 'geofence', 'ops-api'];

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string } };
}

describe('the Kafka topics file', () => {
  it('is what tools/k8s/kafka-topics.ts generates from the topic plan (pnpm k8s:topics)', () => {
    expect(readFileSync(TOPICS_FILE, 'utf8')).toBe(kafkaTopicsYaml());
  });
});

describe('the Kafka users file', () => {
  it('is what tools/k8s/kafka-users.ts generates from the topic map (pnpm k8s:users)', () => {
    expect(readFileSync(USERS_FILE, 'utf8')).toBe(kafkaUsersYaml());
  });
});

describe.skipIf(!hasKubectl() && process.env.CI !== 'true')('the prod overlay with the stores component', () => {
  const objects = render('overlays/prod') as Obj[];
  const all = (kind: string): Obj[] => objects.filter((o) => o.kind === kind);
  const one = (kind: string): Obj => {
    const found = all(kind);
    expect(found, kind).toHaveLength(1);
    return found[0]!;
  };
  const config = one('ConfigMap') as Obj & { data: Record<string, string> };
  const deployments = objects.filter(isDeployment) as Deployment[];
  const envOf = (d: Deployment): EnvVar[] => (d.spec.template.spec.containers[0]?.env ?? []) as EnvVar[];
  const envVar = (d: Deployment, name: string): EnvVar | undefined =>
    envOf(d)
      .filter((e) => e.name === name)
      .at(-1);
  const host = (hostPort: string): string => hostPort.split(':')[0] ?? '';

  it('holds the whole platform: the five services and every store', () => {
    expect(deployments.map((d) => d.metadata.name).sort()).toEqual([...SERVICES].sort());
    for (const kind of [
      'Kafka',
      'ClickHouseInstallation',
      'ClickHouseKeeperInstallation',
      'Cluster',
      'Pooler',
      'ScheduledBackup',
      'RedisFailover',
    ])
      one(kind);
    expect(all('KafkaNodePool')).toHaveLength(2);
    expect(all('KafkaTopic')).toHaveLength(topicPlan.length);
    expect(all('KafkaUser')).toHaveLength(SERVICES.length);
    for (const o of objects)
      expect(o.metadata.namespace, `${o.kind} ${o.metadata.name}`).toBe(o.kind === 'Namespace' ? undefined : 'corridor');
  });

  it('Kafka: KRaft with node pools (three controllers, three brokers), SCRAM on the port the services use, topics only from KafkaTopics', () => {
    const kafka = one('Kafka');
    // Strimzi 1.x serves only the v1 API, and runs every cluster in KRaft with node pools
    expect(kafka.apiVersion).toBe('kafka.strimzi.io/v1');
    expect(kafka.spec.kafka.version).toMatch(/^4\./);
    const pools = all('KafkaNodePool');
    for (const p of pools) expect(p.metadata.labels?.['strimzi.io/cluster'], p.metadata.name).toBe(kafka.metadata.name);
    const replicasWith = (role: string) =>
      pools.filter((p) => (p.spec.roles as string[]).includes(role)).reduce((n, p) => n + (p.spec.replicas as number), 0);
    expect(replicasWith('controller')).toBe(3);
    expect(replicasWith('broker')).toBe(3);
    for (const p of pools) expect(['jbod', 'persistent-claim']).toContain(p.spec.storage.type);
    // Strimzi's bootstrap Service is <name>-kafka-bootstrap
    const brokers = config.data.KAFKA_BROKERS!.split(',');
    expect(brokers).toEqual([`${kafka.metadata.name}-kafka-bootstrap:9092`]);
    const listener = (kafka.spec.kafka.listeners as { port: number; tls: boolean; authentication?: { type: string } }[]).find(
      (l) => l.port === 9092,
    );
    expect(listener?.tls).toBe(false);
    expect(listener?.authentication?.type).toBe(config.data.KAFKA_SASL_MECHANISM);
    expect(kafka.spec.kafka.authorization.type).toBe('simple');
    expect(kafka.spec.kafka.config['auto.create.topics.enable']).toBe(false);
    expect(kafka.spec.entityOperator).toMatchObject({ topicOperator: {}, userOperator: {} });
    expect(kafka.spec.kafka.rack.topologyKey).toBe('topology.kubernetes.io/zone');
  });

  it('Kafka: a KafkaTopic per planned topic with its partitions and retention (or compaction), replicated three times', () => {
    const topics = all('KafkaTopic');
    for (const t of topicPlan) {
      const k = topics.find((x) => x.spec.topicName === t.name);
      expect(k, t.name).toBeDefined();
      expect(k!.metadata.labels?.['strimzi.io/cluster']).toBe(one('Kafka').metadata.name);
      expect(k!.spec.partitions, t.name).toBe(t.partitions);
      expect(k!.spec.replicas, t.name).toBe(3);
      if (t.compacted) expect(k!.spec.config['cleanup.policy'], t.name).toBe('compact');
      else expect(k!.spec.config['retention.ms'], t.name).toBe(t.retentionMs);
    }
  });

  it("Kafka: each service signs in as its own KafkaUser, with the password from the user's Secret", () => {
    const users = all('KafkaUser');
    for (const d of deployments) {
      const name = d.metadata.name;
      const username = envVar(d, 'KAFKA_SASL_USERNAME')?.value;
      const user = users.find((u) => u.metadata.name === username);
      expect(user, `${name}: KafkaUser ${username}`).toBeDefined();
      expect(user!.metadata.labels?.['strimzi.io/cluster']).toBe(one('Kafka').metadata.name);
      expect(user!.spec.authentication.type).toBe(config.data.KAFKA_SASL_MECHANISM);
      expect(user!.spec.authorization.acls.length, name).toBeGreaterThan(0);
      // the User Operator writes the password into a Secret named after the user, key `password`
      expect(envVar(d, 'KAFKA_SASL_PASSWORD')?.valueFrom?.secretKeyRef, name).toEqual({ name: username, key: 'password' });
    }
    expect(new Set(deployments.map((d) => envVar(d, 'KAFKA_SASL_USERNAME')?.value)).size).toBe(SERVICES.length);
  });

  it('Kafka: each KafkaUser may touch only the topics and groups its service uses (packages/contracts topicUsage), never create or alter', () => {
    type Acl = { resource: { type: string; name?: string; patternType?: string }; operations: string[] };
    for (const service of SERVICES as ServiceName[]) {
      const user = all('KafkaUser').find((u) => u.metadata.name === `corridor-${service}`)!;
      const acls = user.spec.authorization.acls as Acl[];
      const topicAcls = acls.filter((a) => a.resource.type === 'topic');
      expect(topicAcls.map((a) => a.resource.name).sort(), service).toEqual(topicsOf(service));
      for (const a of acls) {
        expect(a.resource.name, `${service}: ${JSON.stringify(a)}`).not.toBe('*');
        expect(['topic', 'group'], service).toContain(a.resource.type);
        for (const op of a.operations) expect(['Describe', 'Read', 'Write'], `${service} ${a.resource.name}`).toContain(op);
      }
      for (const t of topicsReadBy(service))
        expect(topicAcls.find((a) => a.resource.name === t)?.operations, `${service} reads ${t}`).toEqual(
          expect.arrayContaining(['Read', 'Describe']),
        );
      for (const t of topicsWrittenBy(service))
        expect(topicAcls.find((a) => a.resource.name === t)?.operations, `${service} writes ${t}`).toContain('Write');
      for (const t of topicAcls) {
        if (!topicsReadBy(service).includes(t.resource.name!))
          expect(t.operations, `${service} does not read ${t.resource.name}`).not.toContain('Read');
        if (!topicsWrittenBy(service).includes(t.resource.name!))
          expect(t.operations, `${service} does not write ${t.resource.name}`).not.toContain('Write');
      }
      const groups = acls
        .filter((a) => a.resource.type === 'group')
        .map((a) => `${a.resource.name}${a.resource.patternType === 'prefix' ? '*' : ''}`)
        .sort();
      expect(groups, service).toEqual(
        [...new Set(topicUsage[service].consumes.map((c) => `${c.group}${c.perInstance ? '*' : ''}`))].sort(),
      );
    }
    // e.g. the journey evaluator reads positions and writes events, and may not read commands or write positions
    const journey = all('KafkaUser').find((u) => u.metadata.name === 'corridor-journey')!.spec.authorization.acls as Acl[];
    expect(journey.find((a) => a.resource.name === 'commands.v1')).toBeUndefined();
    expect(journey.find((a) => a.resource.name === 'positions.v1')?.operations).toEqual(['Describe', 'Read']);
  });

  it('PostgreSQL: three instances, a session Pooler in front that the services use, nightly backups to object storage', () => {
    const cluster = one('Cluster');
    const pooler = one('Pooler');
    const backup = one('ScheduledBackup');
    expect(cluster.apiVersion).toBe('postgresql.cnpg.io/v1');
    expect(cluster.spec.instances).toBe(3);
    expect(cluster.spec.imageName).toMatch(/:\d+\.\d+$/);
    expect(cluster.spec.backup.barmanObjectStore.destinationPath).toMatch(/^s3:\/\//);
    expect(pooler.spec.cluster.name).toBe(cluster.metadata.name);
    expect(pooler.metadata.name).not.toBe(cluster.metadata.name);
    expect(pooler.spec.type).toBe('rw');
    expect(pooler.spec.pgbouncer.poolMode).toBe('session'); // session advisory locks during migrations
    expect(backup.spec.cluster.name).toBe(cluster.metadata.name);
    expect((backup.spec.schedule as string).split(' ')).toHaveLength(6);
    const { database, owner } = cluster.spec.bootstrap.initdb;
    for (const d of deployments) {
      // CloudNativePG writes the owner's password into <cluster>-app
      expect(envVar(d, 'PG_PASSWORD')?.valueFrom?.secretKeyRef, d.metadata.name).toEqual({
        name: `${cluster.metadata.name}-app`,
        key: 'password',
      });
      const url = new URL(envVar(d, 'DATABASE_URL')!.value!.replace('$(PG_PASSWORD)', 'x'));
      expect([url.username, url.hostname, url.port, url.pathname], d.metadata.name).toEqual([
        owner,
        pooler.metadata.name,
        '5432',
        `/${database}`,
      ]);
      const names = envOf(d).map((e) => e.name);
      expect(names.indexOf('PG_PASSWORD'), 'PG_PASSWORD before DATABASE_URL (variable expansion)').toBeLessThan(
        names.lastIndexOf('DATABASE_URL'),
      );
    }
  });

  it('the migrations Job reaches the same database from each of its PostgreSQL containers, and ClickHouse as the services do', () => {
    const job = one('Job');
    const containers = [...job.spec.template.spec.initContainers, ...job.spec.template.spec.containers] as {
      name: string;
      env: EnvVar[];
      command: string[];
    }[];
    expect(containers.map((c) => c.command.at(-1))).toEqual(['gateway', 'journey', 'geofence', 'ops-api', '--clickhouse']);
    const gateway = deployments.find((d) => d.metadata.name === 'gateway')!;
    for (const c of containers.slice(0, -1)) {
      expect(
        c.env.find((e) => e.name === 'DATABASE_URL'),
        c.name,
      ).toEqual(envVar(gateway, 'DATABASE_URL'));
      expect(
        c.env.find((e) => e.name === 'PG_PASSWORD'),
        c.name,
      ).toEqual(envVar(gateway, 'PG_PASSWORD'));
    }
    const clickhouse = containers.at(-1)!;
    const ingest = deployments.find((d) => d.metadata.name === 'ingest')!;
    expect(clickhouse.env.find((e) => e.name === 'CLICKHOUSE_PASSWORD')).toEqual(envVar(ingest, 'CLICKHOUSE_PASSWORD'));
  });

  it('ClickHouse: two shards of two replicas with a three-node Keeper, the cluster name and address the services use', () => {
    const chi = one('ClickHouseInstallation');
    const chk = one('ClickHouseKeeperInstallation');
    expect(chi.apiVersion).toBe('clickhouse.altinity.com/v1');
    expect(chk.apiVersion).toBe('clickhouse-keeper.altinity.com/v1');
    const clusters = chi.spec.configuration.clusters as { name: string; layout: { shardsCount: number; replicasCount: number } }[];
    expect(clusters).toHaveLength(1);
    expect(clusters[0]!.layout).toEqual({ shardsCount: 2, replicasCount: 2 });
    expect(config.data.CLICKHOUSE_CLUSTER).toBe(clusters[0]!.name);
    expect(chk.spec.configuration.clusters[0].layout.replicasCount).toBe(3);
    // the operators' Services: clickhouse-<chi> and keeper-<chk>
    expect(new URL(config.data.CLICKHOUSE_URL!).host).toBe(`clickhouse-${chi.metadata.name}:8123`);
    expect(chi.spec.configuration.zookeeper.nodes).toEqual([{ host: `keeper-${chk.metadata.name}`, port: 2181 }]);
    const users = chi.spec.configuration.users as Record<string, unknown>;
    const [secret, key] = String(users[`${config.data.CLICKHOUSE_USER}/k8s_secret_password`]).split('/');
    for (const d of deployments)
      expect(envVar(d, 'CLICKHOUSE_PASSWORD')?.valueFrom?.secretKeyRef, d.metadata.name).toEqual({ name: secret, key });
  });

  it('Redis: three nodes and three sentinels; the services ask the sentinels for the master, with its password', () => {
    const rf = one('RedisFailover');
    expect(rf.apiVersion).toBe('databases.spotahome.com/v1');
    expect(rf.spec.redis.replicas).toBe(3);
    expect(rf.spec.sentinel.replicas).toBe(3);
    // the operator's sentinel Service is rfs-<name>; its default master name is mymaster
    expect(config.data.REDIS_SENTINELS).toBe(`rfs-${rf.metadata.name}:26379`);
    expect(config.data.REDIS_SENTINEL_NAME).toBe('mymaster');
    for (const d of deployments) {
      expect(envVar(d, 'REDIS_PASSWORD')?.valueFrom?.secretKeyRef, d.metadata.name).toEqual({
        name: rf.spec.auth.secretPath,
        key: 'password',
      });
      expect(envVar(d, 'REDIS_URL')?.value, `${d.metadata.name}: REDIS_URL emptied`).toBe('');
    }
  });

  it("every store's pods carry corridor.io/store (the NetworkPolicy's selector), and store images are pinned", () => {
    const kafka = one('Kafka');
    const podLabels: [string, Record<string, string> | undefined][] = [
      ['Kafka brokers', kafka.spec.kafka.template.pod.metadata.labels],
      ['Kafka entity operator', kafka.spec.entityOperator.template.pod.metadata.labels],
      ['PostgreSQL', one('Cluster').spec.inheritedMetadata.labels],
      ['Pooler', one('Pooler').spec.template.metadata.labels],
      ['ClickHouse', one('ClickHouseInstallation').spec.templates.podTemplates[0].metadata.labels],
      ['Keeper', one('ClickHouseKeeperInstallation').spec.templates.podTemplates[0].metadata.labels],
      ['Redis (the operator copies the resource labels)', one('RedisFailover').metadata.labels],
    ];
    for (const [what, labels] of podLabels) expect(labels?.['corridor.io/store'], what).toMatch(/^(kafka|postgres|clickhouse|redis)$/);
    const images = [
      ...one('ClickHouseInstallation').spec.templates.podTemplates.flatMap((t: { spec: { containers: { image: string }[] } }) =>
        t.spec.containers.map((c) => c.image),
      ),
      ...one('ClickHouseKeeperInstallation').spec.templates.podTemplates.flatMap((t: { spec: { containers: { image: string }[] } }) =>
        t.spec.containers.map((c) => c.image),
      ),
      one('RedisFailover').spec.redis.image,
      one('RedisFailover').spec.sentinel.image,
      one('Cluster').spec.imageName,
    ] as string[];
    for (const image of images) expect(image).toMatch(/:\d+(\.\d+)+$/);
    expect(kafka.spec.kafka.version).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("each service's environment, as the cluster would give it, parses and connects the way the stores expect", () => {
    for (const d of deployments) {
      const env: Record<string, string> = { ...config.data, INTERNAL_TOKEN_SECRET: 'k8s-test-secret-not-published-0123456789abcdef' };
      for (const e of envOf(d)) env[e.name] = e.value ?? (e.valueFrom?.secretKeyRef ? `secret-of-${e.valueFrom.secretKeyRef.name}` : '');
      env.DATABASE_URL = env.DATABASE_URL!.replace('$(PG_PASSWORD)', env.PG_PASSWORD!);
      const parsed = parseConfig(BaseEnv, env);
      expect(kafkaSecurity(parsed).sasl, d.metadata.name).toMatchObject({
        mechanism: 'SCRAM-SHA-512',
        username: `corridor-${d.metadata.name}`,
      });
      expect(redisTarget(parsed), d.metadata.name).toEqual({
        options: { password: 'secret-of-corridor-redis', name: 'mymaster', sentinels: [{ host: 'rfs-corridor', port: 26379 }] },
      });
      expect(parsed.CLICKHOUSE_CLUSTER).toBe('corridor');
    }
  });

  it('NetworkPolicies: default deny, and the stores admit the services on their client ports', () => {
    const policies = all('NetworkPolicy');
    const deny = policies.find((p) => p.metadata.name === 'default-deny')!;
    expect(deny.spec).toEqual({ podSelector: {}, policyTypes: ['Ingress', 'Egress'] });
    const stores = policies.find((p) => p.metadata.name === 'stores')!;
    const toStores = policies.find((p) => p.metadata.name === 'services-to-stores')!;
    const ports = (rules: { ports?: { port: number }[] }[]) => rules.flatMap((r) => (r.ports ?? []).map((p) => p.port));
    const inbound = ports(stores.spec.ingress);
    const outbound = ports(toStores.spec.egress);
    const used = [
      Number(config.data.KAFKA_BROKERS!.split(':')[1]),
      Number(new URL(config.data.CLICKHOUSE_URL!).port),
      Number(config.data.REDIS_SENTINELS!.split(':')[1]),
      5432,
      6379,
    ];
    for (const port of used) {
      expect(inbound, `stores admit ${port}`).toContain(port);
      expect(outbound, `services reach ${port}`).toContain(port);
    }
    expect(host(config.data.KAFKA_BROKERS!)).not.toBe('');
  });
});
