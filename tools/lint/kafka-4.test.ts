import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';

/**
 * Issue 27's "done when", the parts a file can show: no package depends on kafkajs (unmaintained,
 * and it speaks protocol versions Kafka 4 removed; the bus runs on @platformatic/kafka, and the
 * kafka-clients benchmark installs kafkajs outside the workspace when it runs,
 * tools/bench/kafkajs/obtain-kafkajs.ts): every package.json git lists is read, and the lockfile;
 * and every Kafka the repository runs is 4.x, one version: the broker of tools/dev-services
 * (tools/kafka/pom.xml), compose's and the testcontainers' image, and Strimzi's Kafka in deploy/k8s.
 * (Kafka 3.9.2 appears only where an earlier version is the point: tools/dev-services.test.ts's
 * upgrade from an earlier checkout, and the benchmark's kafkajs anchor.)
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);
const FIELDS = [
  'dependencies',
  'devDependencies',
  'optionalDependencies',
  'peerDependencies',
  'bundledDependencies',
  'bundleDependencies',
  'overrides',
  'resolutions',
];
const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

/** `<file>: <field>` for each dependency field of each package.json under root (as git lists them) that names `name`, and the lockfile if it does. */
async function dependents(root: string, name: string): Promise<string[]> {
  const { stdout } = await run(
    'git',
    ['ls-files', '--cached', '--others', '--exclude-standard', '--', 'package.json', '**/package.json', 'pnpm-lock.yaml'],
    { cwd: root },
  );
  const found: string[] = [];
  for (const file of stdout.split('\n').filter(Boolean)) {
    const text = await readFile(join(root, file), 'utf8').catch(() => undefined);
    if (text === undefined) continue; // deleted in the work tree, not yet committed
    if (file.endsWith('pnpm-lock.yaml')) {
      // an importer's entry (`      kafkajs:`) or a package's (`  kafkajs@2.2.4:`)
      if (new RegExp(`^\\s+'?${name}(@[^:]*)?'?:`, 'm').test(text)) found.push(`${file}: lockfile`);
      continue;
    }
    const pkg = JSON.parse(text) as Record<string, unknown>;
    for (const field of FIELDS) {
      const deps = pkg[field];
      const names = Array.isArray(deps) ? deps : deps && typeof deps === 'object' ? Object.keys(deps) : [];
      if (names.includes(name)) found.push(`${file}: ${field}`);
    }
  }
  return found;
}

/** Each place that names the Kafka the repository runs, with the version it names there. */
async function kafkaVersions(): Promise<Record<string, string | undefined>> {
  const text = (file: string): Promise<string> => readFile(join(ROOT, file), 'utf8');
  const out: Record<string, string | undefined> = {
    'tools/kafka/pom.xml': /<kafka\.version>([^<]+)<\/kafka\.version>/.exec(await text('tools/kafka/pom.xml'))?.[1],
    'deploy/k8s/stores/kafka/kafka.yaml': parseAllDocuments(await text('deploy/k8s/stores/kafka/kafka.yaml'))
      .map((d) => d.toJS() as { kind?: string; spec?: { kafka?: { version?: string } } })
      .find((o) => o?.kind === 'Kafka')?.spec?.kafka?.version,
  };
  // every apache/kafka image any tracked file names (compose, the testcontainers of real-parts.ts)
  const { stdout } = await run(
    'git',
    ['grep', '-n', '-o', '-E', 'apache/kafka:[0-9][0-9.]*', '--', '.', ':!docs', ':!bench/results', ':!tools/lint/kafka-4.test.ts'],
    { cwd: ROOT },
  );
  for (const line of stdout.split('\n').filter(Boolean)) {
    const [, where, version] = /^(.+?:\d+):apache\/kafka:(.+)$/.exec(line)!;
    out[`${where} apache/kafka`] = version;
  }
  return out;
}

describe('every Kafka in the repository is 4.x', () => {
  it('the pom, the images and Strimzi name one Kafka 4 version', async () => {
    const versions = await kafkaVersions();
    expect(Object.keys(versions).filter((k) => k.includes('docker-compose.yml'))).toHaveLength(1);
    expect(Object.keys(versions).filter((k) => k.includes('real-parts.ts'))).toHaveLength(1);
    const pom = versions['tools/kafka/pom.xml'];
    expect(pom).toMatch(/^4\.\d+\.\d+$/);
    for (const [where, version] of Object.entries(versions)) expect(version, where).toBe(pom);
  });
});

describe('no package depends on kafkajs', () => {
  it('no package.json of the repository names kafkajs, nor does the lockfile', async () => {
    expect(await dependents(ROOT, 'kafkajs')).toEqual([]);
  });

  it('the check finds kafkajs planted in a package.json or a lockfile', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'no-kafkajs-'));
    dirs.push(dir);
    const files: Record<string, string> = {
      'package.json': JSON.stringify({ name: 'root', devDependencies: { vitest: '4' } }),
      'tools/package.json': JSON.stringify({ name: 'tools', devDependencies: { kafkajs: '2.2.4' } }),
      'services/a/package.json': JSON.stringify({ name: 'a', dependencies: { 'kafkajs-snappy': '1' } }),
      'pnpm-lock.yaml': "lockfileVersion: '9.0'\npackages:\n\n  kafkajs@2.2.4:\n    resolution: {integrity: sha512-x}\n",
    };
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), text);
    }
    await run('git', ['init', '-q'], { cwd: dir });
    expect((await dependents(dir, 'kafkajs')).sort()).toEqual(['pnpm-lock.yaml: lockfile', 'tools/package.json: devDependencies']);
  });
});
