import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { hasKubectl, OVERLAYS, parseDocs, render } from './render';
import { checkManifests, isDeployment, isService, type Deployment, type K8sObject, type Service } from './manifest-invariants';
// deploy/ is no workspace package: each service's config schema by path
import { GatewayConfig } from '../../services/gateway/src/config';
import { IngestConfig } from '../../services/ingest/src/config';
import { JourneyConfig } from '../../services/journey/src/config';
import { GeofenceConfig } from '../../services/geofence/src/config';
import { OpsApiConfig } from '../../services/ops-api/src/config';

const K8S = dirname(fileURLToPath(import.meta.url));
const REPO = join(K8S, '..', '..');
const SERVICES = ['gateway', 'ingest', 'journey', 'geofence', 'ops-api'] as const;
const HTTP_PORT: Record<(typeof SERVICES)[number], number> = {
  gateway: 8082,
  ingest: 8083,
  journey: 8084,
  geofence: 8085,
  'ops-api': 8086,
};
const DEVICE_PORTS = [
  '5001/TCP',
  '5002/TCP',
  '5004/TCP',
  '5013/TCP',
  '5014/TCP',
  '5015/TCP',
  '5020/TCP',
  '5023/TCP',
  '5027/TCP',
  '5027/UDP',
  '5039/TCP',
  '5046/TCP',
  '5055/TCP',
];
const KUSTOMIZATIONS = ['base', 'secret-example', 'stores', 'overlays/dev', 'overlays/prod', 'overlays/external'];
/** The one image definition of the five services, relative to the repository root. */
const DOCKERFILE = 'deploy/docker/Dockerfile';

interface Kustomization {
  resources?: string[];
  configMapGenerator?: { envs?: string[]; files?: string[] }[];
  patches?: { path?: string }[];
}

const readDocs = (file: string): K8sObject[] => parseDocs(readFileSync(file, 'utf8'), relative(REPO, file));
const readKustomization = (dir: string): Kustomization =>
  parse(readFileSync(join(K8S, dir, 'kustomization.yaml'), 'utf8')) as Kustomization;

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return yamlFiles(path);
    return /\.ya?ml$/.test(name) ? [path] : [];
  });
}

/** "KEY=value" lines of an env file. */
const envKeys = (file: string): string[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => l.split('=')[0] ?? '');

interface ComposeService {
  environment?: Record<string, string | number>;
  command?: string[];
  restart?: string;
  depends_on?: Record<string, { condition: string }>;
  image?: string;
  ports?: string[];
  build?: { context?: string; dockerfile?: string; args?: Record<string, string | number> };
}
const readCompose = (): { services: Record<string, ComposeService> } =>
  parse(readFileSync(join(REPO, 'docker-compose.yml'), 'utf8'), { merge: true }) as { services: Record<string, ComposeService> };

const dockerfileLines = (): string[] => readFileSync(join(REPO, DOCKERFILE), 'utf8').split('\n');

/** The build arguments the Dockerfile declares, with their defaults ('' when it gives none). */
const declaredArgs = (): Map<string, string> =>
  new Map(
    dockerfileLines()
      .filter((l) => l.startsWith('ARG '))
      .map((l) => {
        const [name = '', value = ''] = l.slice(4).trim().split(/=(.*)/);
        return [name, value.replace(/^"(.*)"$/, '$1')];
      }),
  );

/** The ports the image EXPOSEs when built with these build arguments, as "port/PROTO". */
function exposedPorts(args: Record<string, string | number>): string[] {
  const values = new Map([...declaredArgs(), ...Object.entries(args).map(([k, v]) => [k, String(v)] as const)]);
  return dockerfileLines()
    .filter((l) => l.startsWith('EXPOSE '))
    .flatMap((l) =>
      l
        .slice(7)
        .replace(/\$\{(\w+)\}|\$(\w+)/g, (_, a?: string, b?: string) => values.get(a ?? b ?? '') ?? '')
        .trim()
        .split(/\s+/),
    )
    .filter((p) => p !== '')
    .map((p) => {
      const [port, proto = 'tcp'] = p.split('/');
      return `${port}/${proto.toUpperCase()}`;
    });
}

const containerPorts = (d: Deployment): string[] =>
  d.spec.template.spec.containers.flatMap((c) => c.ports ?? []).map((p) => `${p.containerPort}/${p.protocol ?? 'TCP'}`);

const baseObjects = (): K8sObject[] => (readKustomization('base').resources ?? []).flatMap((r) => readDocs(join(K8S, 'base', r)));

describe('deploy/k8s files', () => {
  it('every YAML file parses', () => {
    const files = yamlFiles(K8S);
    expect(files.length).toBeGreaterThan(20);
    for (const f of files) expect(() => readDocs(f), relative(REPO, f)).not.toThrow();
  });

  it.each(KUSTOMIZATIONS)('%s/kustomization.yaml lists only files that exist', (dir) => {
    const k = readKustomization(dir);
    const missing: string[] = [];
    for (const r of k.resources ?? []) {
      const path = join(K8S, dir, r);
      const ok = existsSync(path) && (statSync(path).isFile() || existsSync(join(path, 'kustomization.yaml')));
      if (!ok) missing.push(r);
    }
    for (const g of k.configMapGenerator ?? [])
      for (const f of [...(g.envs ?? []), ...(g.files ?? [])]) if (!existsSync(join(K8S, dir, f))) missing.push(f);
    for (const p of k.patches ?? []) if (p.path && !existsSync(join(K8S, dir, p.path))) missing.push(p.path);
    expect(missing).toEqual([]);
  });
});

describe('base manifests', () => {
  const objects = baseObjects();
  const deployments = objects.filter(isDeployment);
  const services = objects.filter(isService);
  const byName = (kind: string) =>
    objects
      .filter((o) => o.kind === kind)
      .map((o) => o.metadata.name)
      .sort();

  it('hold a Deployment, Service and PodDisruptionBudget per service, and HPAs for the consumers', () => {
    expect(byName('Deployment')).toEqual([...SERVICES].sort());
    expect(byName('PodDisruptionBudget')).toEqual([...SERVICES].sort());
    expect(byName('Service')).toEqual([...SERVICES, 'ingest-devices'].sort());
    expect(byName('HorizontalPodAutoscaler')).toEqual([...SERVICES].sort());
    expect(byName('Ingress')).toEqual(['gateway']);
    expect(byName('Job')).toEqual(['corridor-migrate']);
  });

  it('leave the replica counts to the HPAs and spread pods over zones, then nodes', () => {
    for (const d of deployments) {
      expect(d.spec.replicas, d.metadata.name).toBeUndefined();
      const spread = (d.spec.template.spec as { topologySpreadConstraints?: { topologyKey: string }[] }).topologySpreadConstraints ?? [];
      expect(
        spread.map((t) => t.topologyKey),
        d.metadata.name,
      ).toEqual(['topology.kubernetes.io/zone', 'kubernetes.io/hostname']);
    }
  });

  it("route the Ingress to the gateway's http port, WebSocket timeouts included", () => {
    const ingress = objects.find((o) => o.kind === 'Ingress') as K8sObject & {
      metadata: { annotations: Record<string, string> };
      spec: { rules: { http: { paths: { path: string; backend: { service: { name: string; port: { name: string } } } }[] } }[] };
    };
    const backend = ingress.spec.rules[0]?.http.paths[0]?.backend.service;
    expect(backend?.name).toBe('gateway');
    const gateway = services.find((s) => s.metadata.name === 'gateway') as Service;
    expect(gateway.spec.ports.map((p) => p.name)).toContain(backend?.port.name);
    expect(Number(ingress.metadata.annotations['nginx.ingress.kubernetes.io/proxy-read-timeout'])).toBeGreaterThanOrEqual(3600);
  });

  it('let Prometheus reach every port a pod serves /metrics on (the scrape annotation)', () => {
    const scrape = objects.find((o) => o.kind === 'NetworkPolicy' && o.metadata.name === 'metrics-scrape') as K8sObject & {
      spec: { ingress: { ports: { port: number; endPort?: number }[] }[] };
    };
    const allowed = (port: number) => scrape.spec.ingress.some((r) => r.ports.some((p) => port >= p.port && port <= (p.endPort ?? p.port)));
    for (const d of deployments) {
      const port = Number((d.spec.template.metadata as { annotations?: Record<string, string> }).annotations?.['prometheus.io/port']);
      expect(allowed(port), `${d.metadata.name}: ${port}`).toBe(true);
    }
  });

  it("let through exactly the device ports of the LoadBalancer and the gateway's calls to the services", () => {
    const policies = objects.filter((o) => o.kind === 'NetworkPolicy') as (K8sObject & {
      spec: {
        ingress?: { from?: unknown[]; ports?: { port: number; protocol: string }[] }[];
        egress?: { to?: { podSelector?: { matchLabels: Record<string, string> } }[]; ports?: { port: number }[] }[];
      };
    })[];
    const ingest = policies.find((p) => p.metadata.name === 'ingest');
    const open = (ingest?.spec.ingress ?? [])
      .filter((r) => !r.from)
      .flatMap((r) => r.ports ?? [])
      .map((p) => `${p.port}/${p.protocol}`);
    expect(open.sort()).toEqual([...DEVICE_PORTS].sort());
    const gateway = policies.find((p) => p.metadata.name === 'gateway');
    const calls = (gateway?.spec.egress ?? []).map(
      (r) => `${r.to?.[0]?.podSelector?.matchLabels['app.kubernetes.io/name']}:${r.ports?.[0]?.port}`,
    );
    expect(calls.sort()).toEqual(
      SERVICES.filter((s) => s !== 'gateway')
        .map((s) => `${s}:${HTTP_PORT[s]}`)
        .sort(),
    );
    for (const name of SERVICES.filter((s) => s !== 'gateway')) {
      const inbound =
        policies
          .find((p) => p.metadata.name === name)
          ?.spec.ingress?.flatMap((r) => r.ports ?? [])
          .map((p) => p.port) ?? [];
      expect(inbound, name).toContain(HTTP_PORT[name]);
    }
  });

  it('keep every rule (probes, resources, non-root, read-only root, ports)', () => {
    expect(checkManifests(objects)).toEqual([]);
  });

  it('serve each service on its port through a ClusterIP Service', () => {
    for (const name of SERVICES) {
      const s = services.find((x) => x.metadata.name === name);
      expect(s?.spec.type, name).toBe('ClusterIP');
      expect(
        s?.spec.ports.map((p) => p.port),
        name,
      ).toEqual([HTTP_PORT[name]]);
    }
  });

  it('expose every device port, TCP and UDP 5027, through the ingest LoadBalancer', () => {
    const lb = services.find((s) => s.metadata.name === 'ingest-devices') as Service;
    expect(lb.spec.type).toBe('LoadBalancer');
    expect(lb.spec.ports.map((p) => `${p.port}/${p.protocol ?? 'TCP'}`).sort()).toEqual([...DEVICE_PORTS].sort());
  });

  it("match the ports the image EXPOSEs with each service's build arguments in docker-compose.yml", () => {
    const compose = readCompose();
    for (const name of SERVICES) {
      const d = deployments.find((x) => x.metadata.name === name) as Deployment;
      const exposed = exposedPorts(compose.services[name]?.build?.args ?? {});
      expect(exposed, name).toContain(`${HTTP_PORT[name]}/TCP`);
      expect(containerPorts(d).sort(), name).toEqual(exposed.sort());
    }
  });

  it('give every service the environment it reads, secrets only through the Secret', () => {
    const config = envKeys(join(K8S, 'base', 'config.env'));
    const secret = readDocs(join(K8S, 'secret-example', 'secret.yaml'))[0] as K8sObject & { stringData: Record<string, string> };
    const secretKeys = Object.keys(secret.stringData);
    for (const key of ['HOST', 'LOG_LEVEL', 'DATA_DIR', 'KAFKA_BROKERS', 'CLICKHOUSE_URL', 'CLICKHOUSE_USER', 'CLICKHOUSE_DATABASE'])
      expect(config, key).toContain(key);
    for (const key of ['DATABASE_URL', 'REDIS_URL', 'CLICKHOUSE_PASSWORD', 'INTERNAL_TOKEN_SECRET']) {
      expect(secretKeys, key).toContain(key);
      expect(config, key).not.toContain(key);
    }
    for (const d of deployments) {
      const from = d.spec.template.spec.containers[0]?.envFrom ?? [];
      expect(
        from.map((f) => f.configMapRef?.name ?? f.secretRef?.name),
        d.metadata.name,
      ).toEqual(['corridor-config', 'corridor-secrets']);
    }
  });

  it("point the gateway's upstream URLs at the services' ports", () => {
    const gateway = deployments.find((d) => d.metadata.name === 'gateway') as Deployment;
    const env = Object.fromEntries((gateway.spec.template.spec.containers[0]?.env ?? []).map((e) => [e.name, e.value]));
    for (const [variable, name] of [
      ['INGEST_URL', 'ingest'],
      ['JOURNEY_URL', 'journey'],
      ['GEOFENCE_URL', 'geofence'],
      ['OPS_API_URL', 'ops-api'],
    ] as const) {
      expect(env[variable], variable).toBe(`http://${name}:${HTTP_PORT[name]}`);
    }
  });
});

describe('manifest rules', () => {
  it('report a Deployment without probes, root user or writable root, and a Service on a missing port', () => {
    const objects = structuredClone(baseObjects());
    const journey = objects.filter(isDeployment).find((d) => d.metadata.name === 'journey') as Deployment;
    const container = journey.spec.template.spec.containers[0];
    if (!container) throw new Error('journey has no container');
    delete container.readinessProbe;
    delete container.resources?.limits;
    container.securityContext = { allowPrivilegeEscalation: false, readOnlyRootFilesystem: false };
    journey.spec.template.spec.securityContext = { runAsNonRoot: false };
    const service = objects.filter(isService).find((s) => s.metadata.name === 'journey') as Service;
    service.spec.ports = [{ name: 'http', port: 8084, targetPort: 9999 }];
    const problems = checkManifests(objects);
    expect(problems).toEqual(
      expect.arrayContaining([
        'Deployment journey container journey: readinessProbe must be an httpGet of /readyz',
        'Deployment journey container journey: resources.limits.cpu is missing',
        'Deployment journey container journey: readOnlyRootFilesystem is not true',
        'Deployment journey: pod securityContext.runAsNonRoot is not true',
        'Service journey: port 8084/TCP -> 9999 has no matching container port in Deployment journey',
      ]),
    );
    expect(problems.every((p) => p.includes('journey'))).toBe(true);
  });
});

// kubectl ships with this machine image; in CI its absence fails the run rather than skipping
describe.skipIf(!hasKubectl() && process.env.CI !== 'true')('overlays rendered by kubectl kustomize', () => {
  it.each([
    ['overlays/dev', 1, 1],
    ['overlays/prod', 3, 12],
    ['overlays/external', 3, 12],
  ] as const)('%s keeps every rule; its HPAs run %i to %i replicas', (overlay, min, max) => {
    const objects = render(overlay);
    expect(checkManifests(objects)).toEqual([]);
    const deployments = objects.filter(isDeployment);
    expect(deployments).toHaveLength(SERVICES.length);
    for (const d of deployments) expect(d.spec.replicas, d.metadata.name).toBeUndefined();
    const configMaps = objects.filter((o) => o.kind === 'ConfigMap').map((o) => o.metadata.name);
    for (const d of deployments) {
      const ref = d.spec.template.spec.containers[0]?.envFrom?.[0]?.configMapRef?.name;
      expect(configMaps, d.metadata.name).toContain(ref);
      expect(ref).toMatch(/^corridor-config-[a-z0-9]+$/);
    }
    const hpas = objects.filter((o) => o.kind === 'HorizontalPodAutoscaler') as (K8sObject & {
      spec: { minReplicas: number; maxReplicas: number; scaleTargetRef: { name: string } };
    })[];
    expect(hpas.map((h) => h.spec.scaleTargetRef.name).sort()).toEqual([...SERVICES].sort());
    for (const h of hpas) expect([h.spec.minReplicas, h.spec.maxReplicas], h.metadata.name).toEqual([min, max]);
  });

  it('dev carries the example Secret; prod and external expect their own and pin image tags; only prod runs the stores', () => {
    expect(render('overlays/dev').some((o) => o.kind === 'Secret' && o.metadata.name === 'corridor-secrets')).toBe(true);
    for (const overlay of ['overlays/prod', 'overlays/external']) {
      const objects = render(overlay);
      expect(
        objects.some((o) => o.kind === 'Secret'),
        overlay,
      ).toBe(false);
      for (const d of objects.filter(isDeployment)) {
        const image = d.spec.template.spec.containers[0]?.image ?? '';
        expect(image, d.metadata.name).toMatch(/^[^:]+\/corridor\/[a-z-]+:[0-9][\w.-]*$/);
      }
    }
    expect(render('overlays/prod').some((o) => o.kind === 'Kafka')).toBe(true);
    expect(render('overlays/external').some((o) => o.kind === 'Kafka')).toBe(false);
  });

  it.each(OVERLAYS)(
    "%s: an upgrade's first step (-l 'app.kubernetes.io/component in (config,migrations)') selects the migrate Job, the configuration it reads and nothing that rolls",
    (overlay) => {
      const objects = render(overlay);
      const first = objects.filter((o) => ['config', 'migrations'].includes(o.metadata.labels?.['app.kubernetes.io/component'] ?? ''));
      expect(first.map((o) => `${o.kind}/${o.metadata.name.replace(/-[a-z0-9]{10}$/, '')}`).sort()).toEqual([
        'ConfigMap/corridor-config',
        'Job/corridor-migrate',
      ]);
      const job = first.find((o) => o.kind === 'Job') as K8sObject & {
        spec: {
          template: {
            spec: {
              initContainers: { envFrom?: { configMapRef?: { name: string } }[] }[];
              containers: { envFrom?: { configMapRef?: { name: string } }[] }[];
            };
          };
        };
      };
      const configMap = first.find((o) => o.kind === 'ConfigMap')!.metadata.name;
      for (const c of [...job.spec.template.spec.initContainers, ...job.spec.template.spec.containers]) {
        for (const ref of c.envFrom ?? []) if (ref.configMapRef) expect(ref.configMapRef.name).toBe(configMap);
      }
    },
  );
});

describe('docker-compose.yml', () => {
  const compose = readCompose();

  it('builds each service from the one Dockerfile with its SERVICE and PORT, and runs it on the same port as Kubernetes', () => {
    const declared = declaredArgs();
    for (const name of SERVICES) {
      const s = compose.services[name];
      expect(s?.build?.context, name).toBe('.');
      expect(s?.build?.dockerfile, name).toBe(DOCKERFILE);
      expect(s?.build?.args?.SERVICE, name).toBe(name);
      expect(String(s?.build?.args?.PORT), name).toBe(String(HTTP_PORT[name]));
      expect(String(s?.environment?.PORT), name).toBe(String(HTTP_PORT[name]));
      // every argument compose passes is one the Dockerfile reads (docker ignores the others)
      for (const arg of Object.keys(s?.build?.args ?? {})) expect([...declared.keys()], `${name}: ${arg}`).toContain(arg);
      // the Dockerfile deploys @corridor/$SERVICE from services/$SERVICE
      const pkg = JSON.parse(readFileSync(join(REPO, 'services', name, 'package.json'), 'utf8')) as { name?: string };
      expect(pkg.name, name).toBe(`@corridor/${name}`);
    }
    expect(
      SERVICES.filter((name) => existsSync(join(REPO, 'services', name, 'Dockerfile'))),
      'per-service Dockerfiles',
    ).toEqual([]);
  });

  it("runs the ClickHouse migrate step once, from a service image with the services' settings, before every service that uses ClickHouse", () => {
    const migrate = compose.services.migrate!;
    expect(migrate.command?.join(' ')).toMatch(/migrate-main\.[jt]s --clickhouse$/);
    expect(migrate.restart).toBe('no');
    expect(migrate.image).toBe(compose.services.ingest?.image);
    expect(migrate.build).toEqual(compose.services.ingest?.build);
    const { PORT: _, ...ingestEnv } = compose.services.ingest?.environment ?? {};
    expect(migrate.environment).toEqual(ingestEnv);
    for (const name of ['ingest', 'journey', 'geofence', 'ops-api'])
      expect(compose.services[name]?.depends_on?.migrate, name).toEqual({ condition: 'service_completed_successfully' });
  });

  it("runs each service's PostgreSQL migrate step once, from the service's own image, before the services start", () => {
    // with NODE_ENV=production the services only check the schema (DB_SCHEMA_CHANGES unset): the migrate step applies it
    const owners = SERVICES.filter((name) => existsSync(join(REPO, 'services', name, 'drizzle')));
    expect(owners.length).toBeGreaterThan(0);
    for (const name of owners) {
      const step = compose.services[`migrate-${name}`];
      expect(step?.command?.join(' '), name).toMatch(new RegExp(`migrate-main\\.[jt]s --service ${name}$`));
      expect(step?.restart, name).toBe('no');
      expect(step?.image, name).toBe(compose.services[name]?.image);
      expect(step?.build, name).toEqual(compose.services[name]?.build);
      expect(step?.environment?.NODE_ENV, name).toBe('production');
      // every service waits for every migrate step, the gateway for its own (and for the others through the services it waits for)
      for (const svc of SERVICES.filter((s) => s !== 'gateway' || name === 'gateway')) {
        expect(compose.services[svc]?.depends_on?.[`migrate-${name}`], `${svc} waits for migrate-${name}`).toEqual({
          condition: 'service_completed_successfully',
        });
      }
    }
    for (const svc of SERVICES) expect(compose.services[svc]?.environment?.DB_SCHEMA_CHANGES, svc).toBeUndefined();
  });

  it('publishes the device ports of ingest as the LoadBalancer does', () => {
    const published = (compose.services.ingest?.ports ?? []).map((p) => {
      const [, target = '', proto = 'tcp'] = /^(?:\d+:)?(\d+)(?:\/(\w+))?$/.exec(p.split(':').slice(-1)[0] ?? '') ?? [];
      return `${target}/${proto.toUpperCase()}`;
    });
    expect(published.sort()).toEqual([...DEVICE_PORTS].sort());
  });
});

/** A URL on this machine: right for a developer, wrong in any deployment (a mailed link, an upstream). */
const LOCAL_URL = /^[a-z][a-z0-9+.-]*:\/\/(localhost|127\.\d+\.\d+\.\d+|\[::1\]|0\.0\.0\.0)([:/]|$)/i;

/** The settings of a service's config schema whose default is a local URL. */
function localDefaults(schema: { shape: Record<string, { safeParse(v: unknown): { success: boolean; data?: unknown } }> }): string[] {
  return Object.entries(schema.shape)
    .filter(([, field]) => {
      const r = field.safeParse(undefined);
      return r.success && LOCAL_URL.test(String(r.data ?? ''));
    })
    .map(([name]) => name);
}

describe('settings whose default is a local address', () => {
  const schemas = {
    gateway: GatewayConfig,
    ingest: IngestConfig,
    journey: JourneyConfig,
    geofence: GeofenceConfig,
    'ops-api': OpsApiConfig,
  } as const;
  const local = Object.fromEntries(SERVICES.map((name) => [name, localDefaults(schemas[name])])) as Record<
    (typeof SERVICES)[number],
    string[]
  >;

  it('are found in the config schemas (the upstream URLs, the links the services mail)', () => {
    expect(local.gateway).toEqual(expect.arrayContaining(['INGEST_URL', 'OPS_API_URL', 'PASSWORD_RESET_URL']));
    expect(local['ops-api']).toContain('NOTIFICATION_EMAIL_VERIFY_URL');
    expect(LOCAL_URL.test('https://corridor.example.com/verify-email')).toBe(false);
  });

  it('are each set to another address on Kubernetes (corridor-config or the Deployment), in the base and every overlay', () => {
    const base = Object.fromEntries(
      readFileSync(join(K8S, 'base', 'config.env'), 'utf8')
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith('#'))
        .map((l) => [l.split('=')[0] ?? '', l.slice(l.indexOf('=') + 1)]),
    );
    const deployments = baseObjects().filter(isDeployment);
    for (const name of SERVICES) {
      const d = deployments.find((x) => x.metadata.name === name) as Deployment;
      const own = Object.fromEntries((d.spec.template.spec.containers[0]?.env ?? []).map((e) => [e.name, e.value]));
      for (const key of local[name]) {
        const value = own[key] ?? base[key];
        expect(value, `${name}: ${key} is not set in deploy/k8s/base`).toBeDefined();
        expect(LOCAL_URL.test(String(value)), `${name}: ${key}=${value}`).toBe(false);
      }
    }
    // an overlay that sets one of them sets it to a public address too
    for (const overlay of ['overlays/dev', 'overlays/prod', 'overlays/external']) {
      const literals = (readKustomization(overlay).configMapGenerator ?? []).flatMap((g) => (g as { literals?: string[] }).literals ?? []);
      for (const l of literals) expect(LOCAL_URL.test(l.slice(l.indexOf('=') + 1)), `${overlay}: ${l}`).toBe(false);
    }
  });

  it('are each set to another address in docker-compose.yml, for the service that reads it', () => {
    const compose = readCompose();
    for (const name of SERVICES) {
      const env = compose.services[name]?.environment ?? {};
      for (const key of local[name]) {
        expect(env[key], `${name}: ${key} is not set in docker-compose.yml`).toBeDefined();
        expect(LOCAL_URL.test(String(env[key])), `${name}: ${key}=${env[key]}`).toBe(false);
      }
    }
  });
});
