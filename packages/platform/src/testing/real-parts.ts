/**
 * Which implementations of each adapter the environment provides, for the shared contract suites:
 * - the embedded one always;
 * - the real one from env (DATABASE_URL, KAFKA_BROKERS, REDIS_URL, CLICKHOUSE_URL) when set;
 * - else, outside CI, from testcontainers when a Docker engine answers;
 * - in CI (CI=true) a missing real part is a FAILURE, never a skip (ClickHouse excepted: CI
 *   runs the ClickHouse engine through chDB, which is the embedded variant).
 */
export type RealPart = 'postgres' | 'kafka' | 'redis' | 'clickhouse';

const envVar: Record<RealPart, string> = {
  postgres: 'DATABASE_URL',
  kafka: 'KAFKA_BROKERS',
  redis: 'REDIS_URL',
  clickhouse: 'CLICKHOUSE_URL',
};

export const inCI = (): boolean => process.env.CI === 'true' || process.env.CI === '1';

export interface RealEndpoint {
  url: string;
  stop(): Promise<void>;
}

const started = new Map<RealPart, Promise<RealEndpoint | undefined>>();

/** The real part's URL, or undefined when this environment has none (never undefined in CI). */
export function realPart(part: RealPart): Promise<RealEndpoint | undefined> {
  let p = started.get(part);
  if (!p) {
    p = resolvePart(part);
    started.set(part, p);
  }
  return p;
}

async function resolvePart(part: RealPart): Promise<RealEndpoint | undefined> {
  const fromEnv = process.env[envVar[part]];
  if (fromEnv) return { url: fromEnv, stop: async () => undefined };
  if (inCI()) {
    if (part === 'clickhouse') return undefined;
    throw new Error(`CI=true but ${envVar[part]} is not set: start the real parts with tools/dev-services up`);
  }
  return fromContainer(part);
}

async function fromContainer(part: RealPart): Promise<RealEndpoint | undefined> {
  try {
    const { GenericContainer, Wait } = await import('testcontainers');
    if (part === 'postgres') {
      const c = await new GenericContainer('postgres:16-alpine')
        .withEnvironment({ POSTGRES_PASSWORD: 'corridor', POSTGRES_DB: 'corridor' })
        .withExposedPorts(5432)
        .withWaitStrategy(Wait.forLogMessage(/ready to accept connections/, 2))
        .start();
      return {
        url: `postgres://postgres:corridor@${c.getHost()}:${c.getMappedPort(5432)}/corridor`,
        stop: async () => {
          await c.stop();
        },
      };
    }
    if (part === 'redis') {
      const c = await new GenericContainer('redis:7-alpine').withExposedPorts(6379).start();
      return {
        url: `redis://${c.getHost()}:${c.getMappedPort(6379)}`,
        stop: async () => {
          await c.stop();
        },
      };
    }
    if (part === 'clickhouse') {
      const c = await new GenericContainer('clickhouse/clickhouse-server:25.8')
        .withEnvironment({ CLICKHOUSE_PASSWORD: 'corridor' })
        .withExposedPorts(8123)
        .withWaitStrategy(Wait.forHttp('/ping', 8123))
        .start();
      return {
        url: `http://default:corridor@${c.getHost()}:${c.getMappedPort(8123)}`,
        stop: async () => {
          await c.stop();
        },
      };
    }
    const c = await new GenericContainer('apache/kafka:4.2.1')
      .withExposedPorts({ container: 9092, host: 39092 })
      .withEnvironment({
        KAFKA_NODE_ID: '1',
        KAFKA_PROCESS_ROLES: 'broker,controller',
        KAFKA_LISTENERS: 'PLAINTEXT://:9092,CONTROLLER://:9093',
        KAFKA_ADVERTISED_LISTENERS: 'PLAINTEXT://localhost:39092',
        KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
        KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:9093',
        KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
        KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
      })
      .start();
    return {
      url: `localhost:39092`,
      stop: async () => {
        await c.stop();
      },
    };
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    if (/container runtime strategy|docker/i.test(msg)) return undefined; // no Docker engine here
    throw err;
  }
}
