import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { K8sObject } from './manifest-invariants';
import { hasKubectl, render } from './render';

/**
 * The Strimzi custom resources of the stores component (Kafka, KafkaNodePool, KafkaTopic,
 * KafkaUser), as the prod overlay renders them, against the OpenAPI schemas of Strimzi 1.2.0's
 * CRDs, made by tools/k8s/strimzi-crds (Strimzi's own CRD generator over its API jar, both from
 * Maven Central). Validated with ajv as the API server's strict field validation would: types,
 * enumerations, required fields, and an unknown field is an error (the server would drop it).
 *
 * CloudNativePG, the Altinity ClickHouse operator and Spotahome's redis-operator ship their CRDs only
 * as release files and inside their Go sources; no npm, PyPI, Maven or Debian package carries them,
 * so their resources are checked field by field in stores.test.ts (deploy/README.md says so).
 */
const STRIMZI_CRDS = fileURLToPath(new URL('../../tools/k8s/strimzi-crds', import.meta.url));
const KINDS = ['Kafka', 'KafkaNodePool', 'KafkaTopic', 'KafkaUser'] as const;
const hasJava = (): boolean => {
  try {
    execFileSync('sh', ['-c', 'command -v mvn && command -v java'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
const runnable = (hasKubectl() && hasJava()) || process.env.CI === 'true';

type Schema = Record<string, unknown>;

/**
 * Strict field validation: every object schema that lists its properties and neither allows more
 * (additionalProperties) nor keeps unknown fields (x-kubernetes-preserve-unknown-fields) refuses
 * any other field.
 */
function strict(schema: Schema): Schema {
  const out: Schema = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'properties' && v && typeof v === 'object')
      out[k] = Object.fromEntries(Object.entries(v as Record<string, Schema>).map(([p, s]) => [p, strict(s)]));
    else if (k === 'items' && v && typeof v === 'object' && !Array.isArray(v)) out[k] = strict(v as Schema);
    else if ((k === 'oneOf' || k === 'anyOf' || k === 'allOf') && Array.isArray(v)) out[k] = v.map((s: Schema) => strict(s));
    else if (k === 'additionalProperties' && v && typeof v === 'object') out[k] = strict(v as Schema);
    else out[k] = v;
  }
  if (schema.properties && schema.additionalProperties === undefined && schema['x-kubernetes-preserve-unknown-fields'] !== true)
    out.additionalProperties = false;
  return out;
}

function validators(dir: string): Map<string, ValidateFunction> {
  // the CRDs' schemas use OpenAPI/Kubernetes keywords (nullable, x-kubernetes-*) that JSON Schema does not know
  const ajv = new Ajv({ strict: false, allErrors: true });
  const out = new Map<string, ValidateFunction>();
  for (const kind of KINDS) {
    const crd = parseAllDocuments(readFileSync(join(dir, `${kind}.yaml`), 'utf8'))
      .map(
        (d) =>
          d.toJS() as {
            kind: string;
            spec: { group: string; names: { kind: string }; versions: { name: string; schema: { openAPIV3Schema: Schema } }[] };
          },
      )
      .find((d) => d?.kind === 'CustomResourceDefinition');
    if (!crd) throw new Error(`${kind}.yaml holds no CustomResourceDefinition`);
    for (const v of crd.spec.versions) {
      // metadata is the API server's to check (kubernetes-models checks the core objects' metadata)
      const schema = strict(v.schema.openAPIV3Schema);
      (schema.properties as Schema).metadata = { type: 'object' };
      out.set(`${crd.spec.group}/${v.name}/${crd.spec.names.kind}`, ajv.compile(schema));
    }
  }
  return out;
}

function problemsOf(validate: ValidateFunction | undefined, o: K8sObject): string[] {
  if (!validate) return [`${o.apiVersion} ${o.kind}: no CRD version for it`];
  const at = `${o.kind} ${o.metadata?.name}`;
  if (validate(o)) return [];
  return (validate.errors ?? []).map(
    (e) =>
      `${at}: ${e.instancePath || '/'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`,
  );
}

describe.skipIf(!runnable)('Strimzi custom resources against the CRD schemas of Strimzi 1.2.0', () => {
  const dir = execFileSync(STRIMZI_CRDS, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: 600_000 }).trim();
  const byVersion = validators(dir);
  const objects = render('overlays/prod').filter((o) => o.apiVersion.startsWith('kafka.strimzi.io/'));
  const schemaOf = (o: K8sObject): ValidateFunction | undefined => byVersion.get(`${o.apiVersion}/${o.kind}`);

  it('the overlay has every Strimzi kind the stores component declares', () => {
    expect([...new Set(objects.map((o) => o.kind))].sort()).toEqual([...KINDS].sort());
  });

  it.each(KINDS)('every %s is valid', (kind) => {
    const mine = objects.filter((o) => o.kind === kind);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.flatMap((o) => problemsOf(schemaOf(o), o))).toEqual([]);
  });

  it('the schemas do refuse a wrong type, a value off the enumeration and an unknown field', () => {
    const kafka = structuredClone(objects.find((o) => o.kind === 'Kafka')!) as K8sObject & {
      spec: { kafka: { listeners: { tls: unknown; type: string }[]; replicaz?: number } };
    };
    kafka.spec.kafka.listeners[0]!.tls = 'no';
    kafka.spec.kafka.listeners[0]!.type = 'sideways';
    kafka.spec.kafka.replicaz = 3;
    const problems = problemsOf(schemaOf(kafka), kafka).join('\n');
    expect(problems).toMatch(/listeners\/0\/tls must be boolean/);
    expect(problems).toMatch(/listeners\/0\/type must be equal to one of the allowed values/);
    expect(problems).toMatch(/\/spec\/kafka must NOT have additional properties \(replicaz\)/);
    const user = structuredClone(objects.find((o) => o.kind === 'KafkaUser')!) as K8sObject & {
      spec: { authorization: { acls: { operations: string[] }[] } };
    };
    user.spec.authorization.acls[0]!.operations = ['Eat'];
    expect(problemsOf(schemaOf(user), user).join('\n')).toMatch(/operations\/0 must be equal to one of the allowed values/);
  });
});
