import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kafkaJarsPresent, kafkaLibsDir } from '@corridor/platform/testing/dedicated-kafka';
import { freePort } from '@corridor/platform/testing/free-port';
import { inCI } from '@corridor/platform/testing/real-parts';

/**
 * tools/dev-services keeps the broker's data across a plain `down` and `up` (topics, messages,
 * committed offsets), and clears it only when asked (`up --wipe-kafka`, which .ci/run uses).
 * The script runs here on a state directory and ports of this file's own, so the shared parts the
 * other test files use are never stopped. The broker's jars are copied from the shared state
 * directory (with their `.complete` marker, so Maven is skipped); everything else is the script's
 * own work: initdb, pg_ctl, redis-server, the storage format and kafka.Kafka.
 */
const run = promisify(execFile);
const SCRIPT = join(import.meta.dirname, 'dev-services');
const libs = kafkaLibsDir();
/** The script installs packages and runs initdb as the postgres user: it needs root. */
const runnable = (kafkaJarsPresent(libs) && process.getuid?.() === 0) || inCI();
const TOPIC = 'dev-services.persistence';
const GROUP = 'dev-services.persistence.reader';

if (runnable) describe('tools/dev-services on a state directory of its own', devServicesSuite);
else {
  describe('tools/dev-services (not root, or no broker jars here)', () => {
    it('runs only where tools/dev-services has run as root (always in CI)', () => {
      expect(inCI()).toBe(false);
    });
  });
}

function devServicesSuite(): void {
  const state = mkdtempSync(join(tmpdir(), 'corridor-dev-services-'));
  let env: NodeJS.ProcessEnv = {};
  let brokers = '';

  const script = async (...args: string[]): Promise<string> => {
    try {
      const { stdout } = await run(SCRIPT, args, { env, timeout: 600_000, maxBuffer: 16 * 1024 * 1024 });
      return stdout;
    } catch (err) {
      const e = err as Error & { stderr?: string };
      throw new Error(`tools/dev-services ${args.join(' ')} failed: ${e.message}\n${e.stderr ?? ''}`);
    }
  };

  const kafka = () => new Kafka({ clientId: 'dev-services-test', brokers: [brokers], logLevel: logLevel.NOTHING, retry: { retries: 8 } });

  /** The topic's messages, read from the start, and the group's committed offset on partition 0. */
  async function stored(): Promise<{ topics: string[]; committed?: string; end?: string }> {
    const admin = kafka().admin();
    await admin.connect();
    try {
      const topics = await admin.listTopics();
      if (!topics.includes(TOPIC)) return { topics };
      const [offsets] = await admin.fetchOffsets({ groupId: GROUP, topics: [TOPIC] });
      const [end] = await admin.fetchTopicOffsets(TOPIC);
      return { topics, committed: offsets?.partitions[0]?.offset, end: end?.high };
    } finally {
      await admin.disconnect();
    }
  }

  beforeAll(async () => {
    if (!kafkaJarsPresent(libs)) throw new Error(`CI=true but the Kafka jars are not in ${libs}: run tools/dev-services up first`);
    cpSync(libs, join(state, 'kafka', 'libs'), { recursive: true });
    const [pg, redis, kafkaPort, controller] = [await freePort(), await freePort(), await freePort(), await freePort()];
    env = {
      ...process.env,
      CORRIDOR_SERVICES_DIR: state, CORRIDOR_PG_PORT: String(pg), CORRIDOR_REDIS_PORT: String(redis),
      CORRIDOR_KAFKA_PORT: String(kafkaPort), CORRIDOR_KAFKA_CONTROLLER_PORT: String(controller),
    };
    brokers = `127.0.0.1:${kafkaPort}`;
  });

  afterAll(async () => {
    await script('down').catch(() => undefined);
    rmSync(state, { recursive: true, force: true });
  }, 300_000);

  it('keeps topics, messages and committed offsets across down and up; --wipe-kafka clears them', async () => {
    const exports = await script('up');
    expect(exports).toContain(`export KAFKA_BROKERS=${brokers}`);

    const k = kafka();
    const admin = k.admin();
    const producer = k.producer();
    await Promise.all([admin.connect(), producer.connect()]);
    await admin.createTopics({ topics: [{ topic: TOPIC, numPartitions: 1, replicationFactor: 1 }], waitForLeaders: true });
    await producer.send({ topic: TOPIC, messages: [{ key: 'a', value: '1' }, { key: 'b', value: '2' }, { key: 'c', value: '3' }] });
    // a reader that handled the first two messages (its committed offset is the next one to read)
    await admin.setOffsets({ groupId: GROUP, topic: TOPIC, partitions: [{ partition: 0, offset: '2' }] });
    await Promise.all([admin.disconnect(), producer.disconnect()]);
    expect(await stored()).toMatchObject({ committed: '2', end: '3' });

    await script('down');
    expect(existsSync(join(state, 'kafka', 'kafka.pid'))).toBe(false);
    await script('up');
    const kept = await stored();
    expect(kept.topics).toContain(TOPIC);
    expect(kept).toMatchObject({ committed: '2', end: '3' });

    // a running broker is never wiped: --wipe-kafka on it keeps the data
    await script('up', '--wipe-kafka');
    expect((await stored()).topics).toContain(TOPIC);

    await script('down');
    await script('up', '--wipe-kafka');
    const wiped = await stored();
    expect(wiped.topics).not.toContain(TOPIC);
  }, 600_000);
}
