import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Admin, Producer, stringSerializers } from '@platformatic/kafka';
import { closeForced, committedOffsets, topicOffsets } from '@corridor/platform';
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
 * own work: initdb, pg_ctl, redis-server, the storage format and kafka.Kafka. Maven runs once, for
 * the earlier checkout's jars: the script puts a pom's jars aside when another pom's replace them,
 * and puts them back when that pom comes back.
 */
const run = promisify(execFile);
const SCRIPT = join(import.meta.dirname, 'dev-services');
const libs = kafkaLibsDir();
/** The script installs packages and runs initdb as the postgres user: it needs root. */
const runnable = (kafkaJarsPresent(libs) && process.getuid?.() === 0) || inCI();
const TOPIC = 'dev-services.persistence';
/** The Kafka version of this checkout, and the one an earlier checkout ran (before issue 27). */
const POM_VERSION = /<kafka\.version>([^<]+)<\/kafka\.version>/.exec(
  readFileSync(join(import.meta.dirname, 'kafka', 'pom.xml'), 'utf8'),
)![1]!;
const EARLIER_VERSION = '3.9.2';
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

  const admin = () => new Admin({ clientId: 'dev-services-test', bootstrapBrokers: [brokers], retries: 8 });

  /** The topic's end offset and the group's committed offset on partition 0. */
  async function stored(): Promise<{ topics: string[]; committed?: number; end?: number }> {
    const a = admin();
    try {
      const topics = await a.listTopics();
      if (!topics.includes(TOPIC)) return { topics };
      const committed = (await committedOffsets(a, GROUP, [TOPIC])).get(TOPIC)?.get(0);
      const end = (await topicOffsets(a, [TOPIC])).get(TOPIC)?.get(0);
      return { topics, committed, end };
    } finally {
      await a.close();
    }
  }

  /** A topic with three messages, and a reader that handled the first two (its committed offset is the next one to read). */
  async function writeTopic(): Promise<void> {
    const a = admin();
    const producer = new Producer({
      clientId: 'dev-services-test',
      bootstrapBrokers: [brokers],
      serializers: stringSerializers,
      retries: 8,
    });
    try {
      await a.createTopics({ topics: [TOPIC], partitions: 1, replicas: 1 });
      await producer.send({ messages: ['1', '2', '3'].map((value, i) => ({ topic: TOPIC, partition: 0, key: 'abc'[i], value })) });
      await a.alterConsumerGroupOffsets({ groupId: GROUP, topics: [{ name: TOPIC, partitionOffsets: [{ partition: 0, offset: 2n }] }] });
    } finally {
      await Promise.all([a.close(), closeForced(producer)]);
    }
  }

  /** The Kafka version `status` says the broker runs. */
  async function runningVersion(): Promise<string | undefined> {
    const out = await run(SCRIPT, ['status'], { env }).then(
      (r) => r.stdout,
      (e: { stdout?: string }) => e.stdout ?? '',
    );
    return /kafka\s+running.*\(kafka ([^)]+)\)/.exec(out)?.[1];
  }

  beforeAll(async () => {
    if (!kafkaJarsPresent(libs)) throw new Error(`CI=true but the Kafka jars are not in ${libs}: run tools/dev-services up first`);
    cpSync(libs, join(state, 'kafka', 'libs'), { recursive: true });
    const [pg, redis, kafkaPort, controller] = [await freePort(), await freePort(), await freePort(), await freePort()];
    env = {
      ...process.env,
      CORRIDOR_SERVICES_DIR: state,
      CORRIDOR_PG_PORT: String(pg),
      CORRIDOR_REDIS_PORT: String(redis),
      CORRIDOR_KAFKA_PORT: String(kafkaPort),
      CORRIDOR_KAFKA_CONTROLLER_PORT: String(controller),
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

    expect(await runningVersion()).toBe(POM_VERSION);
    await writeTopic();
    expect(await stored()).toMatchObject({ committed: 2, end: 3 });

    await script('down');
    expect(existsSync(join(state, 'kafka', 'kafka.pid'))).toBe(false);
    await script('up');
    const kept = await stored();
    expect(kept.topics).toContain(TOPIC);
    expect(kept).toMatchObject({ committed: 2, end: 3 });

    // a running broker is never wiped: --wipe-kafka on it keeps the data
    await script('up', '--wipe-kafka');
    expect((await stored()).topics).toContain(TOPIC);

    await script('down');
    await script('up', '--wipe-kafka');
    const wiped = await stored();
    expect(wiped.topics).not.toContain(TOPIC);
  }, 600_000);

  /**
   * An earlier checkout of this script (tools/dev-services and tools/kafka as they were, on Kafka
   * 3.9) in a folder of its own: the same script and pom with the Kafka version of before.
   */
  function earlierCheckout(): string {
    const dir = join(state, 'earlier-checkout');
    mkdirSync(join(dir, 'tools'), { recursive: true });
    cpSync(SCRIPT, join(dir, 'tools', 'dev-services'));
    cpSync(join(import.meta.dirname, 'kafka'), join(dir, 'tools', 'kafka'), { recursive: true });
    const pom = join(dir, 'tools', 'kafka', 'pom.xml');
    writeFileSync(pom, readFileSync(pom, 'utf8').replace(/<kafka\.version>[^<]+</, `<kafka.version>${EARLIER_VERSION}<`));
    return join(dir, 'tools', 'dev-services');
  }

  /** Runs the earlier checkout's script; its progress lines (stderr). */
  async function runEarlier(script: string, ...args: string[]): Promise<string> {
    return run(script, args, { env, timeout: 600_000, maxBuffer: 16 * 1024 * 1024 }).then(
      (r) => r.stderr,
      (err: Error & { stderr?: string }) => {
        throw new Error(`the earlier checkout's dev-services ${args.join(' ')} failed: ${err.message}\n${err.stderr ?? ''}`);
      },
    );
  }

  it(`stops a broker an earlier checkout started on Kafka ${EARLIER_VERSION} and starts this checkout's version: on the same data, or empty with --wipe-kafka (CI)`, async () => {
    expect(POM_VERSION).not.toBe(EARLIER_VERSION);
    await script('down');
    rmSync(join(state, 'kafka', 'data'), { recursive: true, force: true });
    const earlier = earlierCheckout();

    // a developer's machine: a plain `up` keeps the data
    expect(await runEarlier(earlier, 'up')).toMatch(
      new RegExp(`kafka ${EARLIER_VERSION} jars (copied from the local Maven repository|downloaded from Maven Central)`),
    );
    expect(await runningVersion()).toBe(EARLIER_VERSION);
    await writeTopic();
    const up = await run(SCRIPT, ['up'], { env, timeout: 600_000 });
    expect(up.stderr).toContain(`ran kafka ${EARLIER_VERSION}`);
    // this checkout's jars were put aside when the earlier one's replaced them: no Maven run to get them back
    expect(up.stderr).toContain(`kafka ${POM_VERSION} jars put back`);
    expect(await runningVersion()).toBe(POM_VERSION);
    expect(await stored()).toMatchObject({ committed: 2, end: 3 });

    // CI on a clean clone: `up --wipe-kafka` while the earlier checkout's broker still runs
    await script('down');
    rmSync(join(state, 'kafka', 'data'), { recursive: true, force: true });
    expect(await runEarlier(earlier, 'up')).toContain(`kafka ${EARLIER_VERSION} jars put back`);
    expect(await runningVersion()).toBe(EARLIER_VERSION);
    await writeTopic();
    await script('up', '--wipe-kafka');
    expect(await runningVersion()).toBe(POM_VERSION);
    expect((await stored()).topics).not.toContain(TOPIC);
  }, 900_000);
}
