import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import type { K8sObject } from './manifest-invariants';

/** deploy/k8s, and what `kubectl kustomize` renders from a folder of it (parsed). */
const K8S = dirname(fileURLToPath(import.meta.url));
export const OVERLAYS = ['overlays/dev', 'overlays/prod', 'overlays/external'] as const;

export function parseDocs(text: string, source: string): K8sObject[] {
  return parseAllDocuments(text)
    .map((doc) => {
      if (doc.errors.length > 0) throw new Error(`${source}: ${doc.errors.map((e) => e.message).join('; ')}`);
      return doc.toJS() as K8sObject;
    })
    .filter((o) => o !== null);
}

const works = (cmd: string, args: string[]): boolean => {
  try {
    execFileSync(cmd, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
/** kubectl's kustomize, else the standalone kustomize (.ci/run installs one when kubectl is missing). */
const renderer: [string, string[]] | undefined = works('kubectl', ['version', '--client'])
  ? ['kubectl', ['kustomize']]
  : works('kustomize', ['version'])
    ? ['kustomize', ['build']]
    : undefined;
export const hasKubectl = (): boolean => renderer !== undefined;

const rendered = new Map<string, K8sObject[]>();
/** kubectl kustomize of a folder under deploy/k8s (each folder rendered once per test file). */
export function render(folder: string): K8sObject[] {
  let objects = rendered.get(folder);
  if (!objects) {
    if (!renderer) throw new Error('neither kubectl nor kustomize is installed');
    objects = parseDocs(
      execFileSync(renderer[0], [...renderer[1], join(K8S, folder)], { encoding: 'utf8' }),
      `${renderer.join(' ')} ${folder}`,
    );
    rendered.set(folder, objects);
  }
  return structuredClone(objects);
}
