import { describe, expect, it } from 'vitest';
import { ConfigMap, Namespace, Secret, Service } from 'kubernetes-models/v1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Job } from 'kubernetes-models/batch/v1';
import { Ingress, NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import type { K8sObject } from './manifest-invariants';
import { OVERLAYS, hasKubectl, render } from './render';

/**
 * Every Kubernetes object the overlays render, checked against the API's JSON schemas (the
 * kubernetes-models package: types, required fields, enumerations; it does not flag unknown
 * fields). The operators' custom resources are skipped here: crd-schemas.test.ts validates Strimzi's
 * against its CRDs, stores.test.ts checks the fields Corridor uses in the others (deploy/README.md).
 */
type Validating = { validate(): void };
const MODELS: Record<string, new (data: never) => Validating> = {
  'v1/ConfigMap': ConfigMap,
  'v1/Namespace': Namespace,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'batch/v1/Job': Job,
  'networking.k8s.io/v1/Ingress': Ingress,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
};
/** The operators' API groups: custom resources, checked in stores.test.ts. */
const CUSTOM =
  /^(kafka\.strimzi\.io|postgresql\.cnpg\.io|clickhouse\.altinity\.com|clickhouse-keeper\.altinity\.com|databases\.spotahome\.com)\//;

export function schemaProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  for (const o of objects) {
    const at = `${o.kind} ${o.metadata?.name}`;
    if (CUSTOM.test(o.apiVersion)) continue;
    const Model = MODELS[`${o.apiVersion}/${o.kind}`];
    if (!Model) {
      problems.push(`${at}: ${o.apiVersion} ${o.kind} has no schema here (add it to MODELS)`);
      continue;
    }
    try {
      new Model(o as never).validate();
    } catch (err) {
      problems.push(`${at}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return problems;
}

// kubectl ships with this machine image; in CI its absence fails the run rather than skipping
describe.skipIf(!hasKubectl() && process.env.CI !== 'true')('rendered objects against the Kubernetes schemas', () => {
  it.each(OVERLAYS)('%s: every core object is valid', (overlay) => {
    const objects = render(overlay);
    expect(objects.length).toBeGreaterThan(20);
    expect(schemaProblems(objects)).toEqual([]);
  });

  it('a wrong type, a missing required field and an unknown kind are reported', () => {
    const objects = render('overlays/prod');
    const d = objects.find((o) => o.kind === 'Deployment') as K8sObject & { spec: { replicas?: unknown; selector?: unknown } };
    d.spec.replicas = 'three';
    const svc = objects.find((o) => o.kind === 'Service') as K8sObject & { spec: { ports: { port?: number }[] } };
    delete svc.spec.ports[0]!.port;
    const problems = schemaProblems([d, svc, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } }]);
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/replicas must be integer/);
    expect(problems[1]).toMatch(/ports\/0 must have required property/);
    expect(problems[2]).toMatch(/has no schema here/);
  });
});
