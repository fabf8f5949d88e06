/**
 * Rules every Corridor manifest set must keep, checked on parsed objects (the base files, or what
 * `kubectl kustomize` renders for an overlay). Each check returns the problems it found, so a test
 * can print all of them at once.
 */

interface Meta {
  name: string;
  labels?: Record<string, string>;
}
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: Meta;
}

interface Probe {
  httpGet?: { path?: string; port?: string | number };
}
interface ContainerPort {
  name?: string;
  containerPort: number;
  protocol?: string;
}
interface Container {
  name: string;
  image?: string;
  ports?: ContainerPort[];
  env?: { name: string; value?: string }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: { allowPrivilegeEscalation?: boolean; readOnlyRootFilesystem?: boolean; runAsNonRoot?: boolean };
  volumeMounts?: { name: string; mountPath: string }[];
}
export interface Deployment extends K8sObject {
  spec: {
    replicas?: number;
    selector: { matchLabels: Record<string, string> };
    template: {
      metadata: { labels: Record<string, string> };
      spec: {
        securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
        containers: Container[];
        volumes?: { name: string; emptyDir?: object }[];
      };
    };
  };
}
export interface Service extends K8sObject {
  spec: {
    type?: string;
    selector: Record<string, string>;
    ports: { name?: string; port: number; targetPort?: string | number; protocol?: string }[];
  };
}
interface Selecting extends K8sObject {
  spec: { selector?: { matchLabels?: Record<string, string> }; scaleTargetRef?: { kind: string; name: string } };
}

export const isDeployment = (o: K8sObject): o is Deployment => o.kind === 'Deployment';
export const isService = (o: K8sObject): o is Service => o.kind === 'Service';

const matches = (selector: Record<string, string>, labels: Record<string, string>): boolean =>
  Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels[k] === v);

/** The configured DATA_DIR (and /tmp) must be writable under a read-only root filesystem. */
const WRITABLE_PATHS = ['/tmp', '/app/.data'];

function checkDeployment(d: Deployment): string[] {
  const problems: string[] = [];
  const at = `Deployment ${d.metadata.name}`;
  const pod = d.spec.template.spec;
  if (!matches(d.spec.selector.matchLabels, d.spec.template.metadata.labels))
    problems.push(`${at}: selector does not match the pod labels`);
  if (pod.securityContext?.runAsNonRoot !== true) problems.push(`${at}: pod securityContext.runAsNonRoot is not true`);
  if (!pod.securityContext?.runAsUser) problems.push(`${at}: pod securityContext.runAsUser is not a non-zero uid`);
  if (pod.containers.length === 0) problems.push(`${at}: no containers`);
  for (const c of pod.containers) {
    const where = `${at} container ${c.name}`;
    const portNames = new Set((c.ports ?? []).map((p) => p.name));
    const probes: [string, Probe | undefined, string][] = [
      ['readinessProbe', c.readinessProbe, '/readyz'],
      ['livenessProbe', c.livenessProbe, '/healthz'],
    ];
    for (const [kind, probe, path] of probes) {
      if (probe?.httpGet?.path !== path) problems.push(`${where}: ${kind} must be an httpGet of ${path}`);
      const port = probe?.httpGet?.port;
      if (typeof port === 'string' && !portNames.has(port))
        problems.push(`${where}: ${kind} names port ${port}, which the container lacks`);
    }
    for (const level of ['requests', 'limits'] as const) {
      for (const resource of ['cpu', 'memory']) {
        if (!c.resources?.[level]?.[resource]) problems.push(`${where}: resources.${level}.${resource} is missing`);
      }
    }
    if (c.securityContext?.allowPrivilegeEscalation !== false) problems.push(`${where}: allowPrivilegeEscalation is not false`);
    if (c.securityContext?.readOnlyRootFilesystem !== true) problems.push(`${where}: readOnlyRootFilesystem is not true`);
    for (const path of WRITABLE_PATHS) {
      const mount = c.volumeMounts?.find((m) => m.mountPath === path);
      const volume = mount && pod.volumes?.find((v) => v.name === mount.name);
      if (!volume?.emptyDir) problems.push(`${where}: ${path} is not an emptyDir mount`);
    }
    const http = c.ports?.find((p) => p.name === 'http');
    const portEnv = c.env?.find((e) => e.name === 'PORT')?.value;
    if (!http) problems.push(`${where}: no port named http`);
    else if (portEnv !== String(http.containerPort)) problems.push(`${where}: PORT=${portEnv} but the http port is ${http.containerPort}`);
  }
  return problems;
}

/** Every Service selects a Deployment, and each of its ports lands on a container port of the same protocol. */
function checkServicePorts(services: Service[], deployments: Deployment[]): string[] {
  const problems: string[] = [];
  for (const s of services) {
    const at = `Service ${s.metadata.name}`;
    const targets = deployments.filter((d) => matches(s.spec.selector, d.spec.template.metadata.labels));
    if (targets.length === 0) {
      problems.push(`${at}: selects no Deployment`);
      continue;
    }
    for (const d of targets) {
      const ports = d.spec.template.spec.containers.flatMap((c) => c.ports ?? []);
      for (const p of s.spec.ports) {
        const target = p.targetPort ?? p.port;
        const protocol = p.protocol ?? 'TCP';
        const hit = ports.find(
          (cp) => (typeof target === 'string' ? cp.name === target : cp.containerPort === target) && (cp.protocol ?? 'TCP') === protocol,
        );
        if (!hit)
          problems.push(`${at}: port ${p.port}/${protocol} -> ${target} has no matching container port in Deployment ${d.metadata.name}`);
      }
    }
  }
  return problems;
}

/** HorizontalPodAutoscalers and PodDisruptionBudgets point at Deployments that exist. */
function checkReferences(objects: K8sObject[], deployments: Deployment[]): string[] {
  const problems: string[] = [];
  for (const o of objects as Selecting[]) {
    if (o.kind === 'HorizontalPodAutoscaler') {
      const ref = o.spec.scaleTargetRef;
      if (ref?.kind !== 'Deployment' || !deployments.some((d) => d.metadata.name === ref.name)) {
        problems.push(`HorizontalPodAutoscaler ${o.metadata.name}: scales no existing Deployment`);
      }
    }
    if (o.kind === 'PodDisruptionBudget') {
      const selector = o.spec.selector?.matchLabels ?? {};
      if (!deployments.some((d) => matches(selector, d.spec.template.metadata.labels))) {
        problems.push(`PodDisruptionBudget ${o.metadata.name}: selects no Deployment`);
      }
    }
  }
  return problems;
}

/** Runs every rule on one manifest set. */
export function checkManifests(objects: K8sObject[]): string[] {
  const deployments = objects.filter(isDeployment);
  return [
    ...deployments.flatMap(checkDeployment),
    ...checkServicePorts(objects.filter(isService), deployments),
    ...checkReferences(objects, deployments),
  ];
}
