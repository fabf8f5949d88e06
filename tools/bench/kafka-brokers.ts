/**
 * Brokers of a benchmark's own, one per Kafka version, for suites/kafka-clients.ts when a client is
 * named with a version (`kafkajs@3.9.2`): each a single-node KRaft broker with the same settings
 * (DedicatedKafka of packages/platform: 384 MB heap, serial GC, on free ports, data in a temporary
 * folder), started before the rounds and removed after them, so each client runs on the Kafka it
 * is deployed with (kafkajs on 3.9, whose protocol versions Kafka 4 removed in part, KIP-896; the
 * bus on 4.x) and neither shares its broker with other work. The jars of the version
 * tools/kafka/pom.xml names are the ones tools/dev-services installed; another version's are
 * copied by Maven with the same pom (`-Dkafka.version`) into a folder outside the repository,
 * offline first, as tools/dev-services does.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { DedicatedKafka, kafkaJarsPresent, kafkaLibsDir } from '@corridor/platform/testing/dedicated-kafka';

const run = promisify(execFile);
const POM = fileURLToPath(new URL('../kafka/pom.xml', import.meta.url));
/** The Kafka version of this checkout (tools/kafka/pom.xml). */
const POM_KAFKA_VERSION = /<kafka\.version>([^<]+)<\/kafka\.version>/.exec(readFileSync(POM, 'utf8'))![1]!;

/** A folder with the broker jars of `version` (copied by Maven unless there already). */
async function kafkaJars(version: string): Promise<string> {
  if (version === POM_KAFKA_VERSION && kafkaJarsPresent()) return kafkaLibsDir();
  const libs = join(tmpdir(), `corridor-bench-kafka-${version}`, 'libs');
  if (kafkaJarsPresent(libs)) return libs;
  rmSync(`${libs}.tmp`, { recursive: true, force: true });
  const args = ['-B', '-q', '-f', POM, 'package', `-Dkafka.version=${version}`, `-Dkafka.libs.dir=${libs}.tmp`];
  await run('mvn', ['-o', ...args], { timeout: 600_000 }).catch(() => run('mvn', args, { timeout: 600_000 }));
  rmSync(libs, { recursive: true, force: true });
  renameSync(`${libs}.tmp`, libs);
  writeFileSync(join(libs, '.complete'), `${version}\n`);
  return libs;
}

/** The Kafka version of the broker jar in a folder of jars (`kafka_2.13-<version>.jar`). */
function jarVersion(libs: string): string {
  const jar = readdirSync(libs).find((f) => /^kafka_2\.13-[\d.]+\.jar$/.test(f));
  if (!jar) throw new Error(`no kafka_2.13 jar in ${libs}`);
  return jar.slice('kafka_2.13-'.length, -'.jar'.length);
}

/**
 * One started broker per version; `close()` stops and removes them all. Resolves when every broker
 * answers, and checks that each runs the version asked for (the broker jar on its class path).
 */
export async function ownBrokers(versions: string[]): Promise<{ brokers: Map<string, string[]>; close: () => Promise<void> }> {
  const started = new Map<string, DedicatedKafka>();
  const close = async (): Promise<void> => {
    await Promise.allSettled([...started.values()].map((k) => k.cleanup()));
  };
  try {
    for (const version of new Set(versions)) {
      const libs = await kafkaJars(version);
      if (jarVersion(libs) !== version) throw new Error(`the jars in ${libs} are Kafka ${jarVersion(libs)}, not ${version}`);
      started.set(version, await DedicatedKafka.create(libs));
    }
  } catch (err) {
    await close();
    throw err;
  }
  return { brokers: new Map([...started].map(([v, k]) => [v, k.brokers])), close };
}
