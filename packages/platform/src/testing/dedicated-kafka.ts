import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, openSync, closeSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Admin } from '@platformatic/kafka';
import { freePort } from './free-port';

/**
 * A single-node KRaft Kafka broker of one test file's own, from the jars tools/dev-services
 * installs, so a fault test can really stop, kill and restart it without disturbing the shared
 * broker other test files use. stop(), kill() and start() keep the same ports and data directory.
 */
const run = promisify(execFile);

/** Where tools/dev-services puts the broker's jars. */
export const kafkaLibsDir = (): string => join(process.env.CORRIDOR_SERVICES_DIR ?? '/tmp/corridor-services', 'kafka', 'libs');

/** The jars are all there: tools/dev-services writes `.complete` after a full copy. */
export const kafkaJarsPresent = (libs = kafkaLibsDir()): boolean => existsSync(join(libs, '.complete'));

/**
 * Ceilings, not timings: a JVM starting or shutting down on a busy two-core machine (load average
 * 30-40 while CI runs) can take minutes; a healthy broker passes long before them.
 */
const READY_TIMEOUT_MS = 240_000;
const STOP_GRACE_MS = 60_000;
const TOOL_TIMEOUT_MS = 180_000;

/**
 * A KRaft cluster id as Kafka's `StorageTool random-uuid` prints it (Uuid.randomUuid: 16 random
 * bytes, base64url without padding, never starting with '-'), made here to save a JVM start.
 */
export function kafkaClusterId(): string {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

/**
 * The broker JVM's class-data-sharing archive for these jars (a dynamic AppCDS archive): the
 * classes a broker loads, stored once, mapped by every later start instead of read from 53 jars.
 * A start after a SIGKILL took 10.8-13.9 s with it against 17.6-18.9 s without (alternated, load
 * 27-38; docs/design-changes.md). Written once per jar set, at a broker's graceful exit. One file
 * per jar set (the libs folder and the pom hash in its `.complete`) in the temporary folder; a
 * JVM that finds it stale (other jars, another JDK) warns and starts without it.
 */
function brokerClassArchive(libs: string): string {
  const complete = existsSync(join(libs, '.complete')) ? readFileSync(join(libs, '.complete'), 'utf8') : '';
  const key = createHash('sha256').update(`${libs}\n${complete}`).digest('hex').slice(0, 16);
  return join(tmpdir(), `corridor-kafka-broker-${key}.jsa`);
}

export class DedicatedKafka {
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  /** Where this broker's JVM writes the class archive as it exits, when it started without one. */
  private archiveDraft: string | undefined;

  private constructor(
    readonly dir: string,
    readonly port: number,
    readonly controllerPort: number,
    private readonly libs: string,
  ) {}

  get brokers(): string[] {
    return [`127.0.0.1:${this.port}`];
  }

  get running(): boolean {
    return this.child !== undefined;
  }

  /** Path of the broker's log4j file, for failure messages. */
  get logFile(): string {
    return join(this.dir, 'server.log');
  }

  /** Writes the configuration, formats the storage and starts the broker (ready when it resolves). */
  static async create(libs = kafkaLibsDir()): Promise<DedicatedKafka> {
    if (!kafkaJarsPresent(libs)) throw new Error(`no Kafka jars in ${libs}: run tools/dev-services up (it installs them)`);
    const port = await freePort();
    const controllerPort = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'corridor-dedicated-kafka-'));
    const kafka = new DedicatedKafka(dir, port, controllerPort, libs);
    try {
      kafka.writeConfig();
      const uuid = kafkaClusterId();
      await kafka.tool('kafka.tools.StorageTool', 'format', '-t', uuid, '-c', join(dir, 'server.properties'), '--ignore-formatted');
      await kafka.start();
      return kafka;
    } catch (err) {
      await kafka.cleanup();
      throw err;
    }
  }

  private writeConfig(): void {
    const props = {
      'node.id': '1',
      'process.roles': 'broker,controller',
      listeners: `PLAINTEXT://127.0.0.1:${this.port},CONTROLLER://127.0.0.1:${this.controllerPort}`,
      'advertised.listeners': `PLAINTEXT://127.0.0.1:${this.port}`,
      'listener.security.protocol.map': 'PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
      'controller.quorum.voters': `1@127.0.0.1:${this.controllerPort}`,
      'controller.listener.names': 'CONTROLLER',
      'inter.broker.listener.name': 'PLAINTEXT',
      'log.dirs': join(this.dir, 'data'),
      'offsets.topic.replication.factor': '1',
      'offsets.topic.num.partitions': '2',
      'transaction.state.log.replication.factor': '1',
      'transaction.state.log.min.isr': '1',
      'group.initial.rebalance.delay.ms': '0',
      'num.partitions': '2',
      'auto.create.topics.enable': 'true',
    };
    writeFileSync(
      join(this.dir, 'server.properties'),
      Object.entries(props)
        .map(([k, v]) => `${k}=${v}\n`)
        .join(''),
    );
    // Kafka 4 logs through Log4j 2 (tools/kafka/pom.xml brings it)
    writeFileSync(
      join(this.dir, 'log4j2.properties'),
      [
        'status = warn',
        'appender.file.type = File',
        'appender.file.name = file',
        `appender.file.fileName = ${this.logFile}`,
        'appender.file.layout.type = PatternLayout',
        'appender.file.layout.pattern = [%d] %p %m (%c)%n',
        'rootLogger.level = INFO',
        'rootLogger.appenderRef.file.ref = file',
        'logger.state.name = state.change.logger',
        'logger.state.level = WARN',
        'logger.request.name = kafka.request.logger',
        'logger.request.level = WARN',
        '',
      ].join('\n'),
    );
  }

  /** Runs one of Kafka's command-line tools with a small quick-start JVM; resolves to its stdout. */
  private async tool(...args: string[]): Promise<string> {
    const jvm = [
      '-Xmx256m',
      '-XX:+UseSerialGC',
      '-XX:TieredStopAtLevel=1',
      `-Dlog4j2.configurationFile=${join(this.dir, 'log4j2.properties')}`,
    ];
    const { stdout } = await run('java', [...jvm, '-cp', `${this.libs}/*`, ...args], { timeout: TOOL_TIMEOUT_MS });
    return stdout;
  }

  /** Starts the broker on the same ports and data directory, and waits until a client lists topics. */
  async start(): Promise<void> {
    if (this.child) return;
    const out = openSync(join(this.dir, 'kafka.out'), 'a');
    // the class archive when there is one; else this JVM writes one at its graceful exit (a draft,
    // renamed into place by stop(), so that no JVM maps half an archive)
    const archive = brokerClassArchive(this.libs);
    this.archiveDraft = existsSync(archive) ? undefined : `${archive}.${process.pid}-${randomBytes(4).toString('hex')}.draft`;
    const child = spawn(
      'java',
      [
        '-Xmx384m',
        '-XX:+UseSerialGC',
        this.archiveDraft ? `-XX:ArchiveClassesAtExit=${this.archiveDraft}` : `-XX:SharedArchiveFile=${archive}`,
        '-Djava.awt.headless=true',
        `-Dlog4j2.configurationFile=${join(this.dir, 'log4j2.properties')}`,
        '-cp',
        `${this.libs}/*`,
        'kafka.Kafka',
        join(this.dir, 'server.properties'),
      ],
      { cwd: this.dir, stdio: ['ignore', out, out] },
    );
    closeSync(out);
    this.child = child;
    let failure: Error | undefined;
    this.exited = new Promise((resolve) => {
      child.once('error', (err) => {
        failure = err;
        resolve();
      });
      child.once('exit', (code, signal) => {
        failure ??= new Error(`kafka.Kafka exited (code ${code}, signal ${signal})`);
        resolve();
      });
    });
    void this.exited.then(() => {
      if (this.child === child) this.child = undefined;
    });
    try {
      await this.waitReady(() => failure);
    } catch (err) {
      await this.stop();
      throw err;
    }
  }

  private async waitReady(failed: () => Error | undefined): Promise<void> {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    let last: unknown;
    while (Date.now() < deadline) {
      const err = failed();
      if (err) throw new Error(`${err.message} while starting; ${this.tail()}`);
      const admin = new Admin({
        clientId: 'dedicated-kafka-probe',
        bootstrapBrokers: this.brokers,
        connectTimeout: 1000,
        requestTimeout: 3000,
        retries: 0,
      });
      try {
        await admin.listTopics();
        return;
      } catch (e) {
        last = e;
      } finally {
        await admin.close().catch(() => undefined);
      }
      // the interval between two probes of a condition (the broker lists its topics), not a wait for time
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(
      `Kafka on ${this.brokers[0]} did not list topics within ${READY_TIMEOUT_MS / 1000} s (${String(last)}); ${this.tail()}`,
    );
  }

  /** SIGTERM (a controlled shutdown), SIGKILL if it is still running after 60 s; resolves once it exited. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    await this.exited;
    clearTimeout(killer);
    this.child = undefined;
    this.keepArchiveDraft(child.signalCode !== 'SIGKILL');
  }

  /** A draft archive the JVM wrote at a graceful exit goes into place; any other is removed. */
  private keepArchiveDraft(graceful: boolean): void {
    const draft = this.archiveDraft;
    this.archiveDraft = undefined;
    if (!draft || !existsSync(draft)) return;
    if (graceful && statSync(draft).size > 0) renameSync(draft, brokerClassArchive(this.libs));
    else rmSync(draft, { force: true });
  }

  /** SIGKILL: the broker dies at once, without a controlled shutdown; resolves once it exited. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child) return;
    child.kill('SIGKILL');
    await this.exited;
    this.child = undefined;
    this.keepArchiveDraft(false);
  }

  /** Stops the broker and removes its directory. */
  async cleanup(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private tail(): string {
    const file = this.logFile;
    if (!existsSync(file)) return `no broker log at ${file}`;
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n').slice(-15).join('\n');
    return `last lines of ${file}:\n${lines}`;
  }
}
