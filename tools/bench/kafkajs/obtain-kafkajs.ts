/**
 * kafkajs 2.2.4, the benchmark anchor of issue 27, is a dependency of no package: when the
 * kafka-clients suite runs a kafkajs round it fetches the package from the npm registry (`npm pack`),
 * checks the tarball against the sha512 the workspace's lockfile held for it before it was removed,
 * and installs it into a folder outside the workspace (`npm install --prefix`), reused by later
 * runs. The suite's kafkajs child processes resolve `kafkajs` there (kafkajs-hooks.ts).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

const KAFKAJS_VERSION = '2.2.4';
/** npm's `dist.integrity` of kafkajs 2.2.4 (as pnpm-lock.yaml recorded it while kafkajs was a devDependency). */
const INTEGRITY = 'sha512-j/YeapB1vfPT2iOIUn/vxdyKEuhuY2PxMBvf5JWux6iSaukAccrMtXEY/Lb7OvavDhOWME589bpLrEdnVHjfjA==';

/** The folder kafkajs is installed in (its node_modules holds kafkajs); BENCH_KAFKAJS_DIR overrides it. */
export const kafkajsDir = (): string => process.env.BENCH_KAFKAJS_DIR ?? join(tmpdir(), `corridor-bench-kafkajs-${KAFKAJS_VERSION}`);

const installedVersion = (dir: string): string | undefined => {
  const pkg = join(dir, 'node_modules', 'kafkajs', 'package.json');
  return existsSync(pkg) ? (JSON.parse(readFileSync(pkg, 'utf8')) as { version?: string }).version : undefined;
};

/** Installs kafkajs 2.2.4 outside the workspace unless it is there already; resolves to its folder. */
export async function obtainKafkajs(): Promise<string> {
  const dir = kafkajsDir();
  if (installedVersion(dir) === KAFKAJS_VERSION) return dir;
  mkdirSync(dir, { recursive: true });
  // a package.json of the folder's own, so that npm installs here and nowhere above it
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'corridor-bench-kafkajs', private: true })}\n`);
  const npm = { cwd: dir, timeout: 300_000 };
  const { stdout } = await run('npm', ['pack', `kafkajs@${KAFKAJS_VERSION}`, '--json', '--pack-destination', dir], npm);
  const tarball = join(dir, (JSON.parse(stdout) as { filename: string }[])[0]!.filename);
  const integrity = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
  if (integrity !== INTEGRITY)
    throw new Error(`kafkajs ${KAFKAJS_VERSION} from the registry has integrity ${integrity}, expected ${INTEGRITY}`);
  await run('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock', tarball], npm);
  const version = installedVersion(dir);
  if (version !== KAFKAJS_VERSION)
    throw new Error(`npm installed kafkajs ${version ?? '(nothing)'} in ${dir}, expected ${KAFKAJS_VERSION}`);
  return dir;
}
