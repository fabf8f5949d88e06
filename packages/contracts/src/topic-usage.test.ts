import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { dlqTopic, Topics } from './topics';
import { topicsOf, topicsReadBy, topicsWrittenBy, topicUsage, type ConsumerGroupUse } from './topic-usage';
import type { ServiceName } from './endpoint';

/**
 * The map against the services' code (read as syntax, not text): every `bus.publish(Topics.x, …)` (or
 * `publishValidated(bus, Topics.x, …)`) and every subscription
 * (an object with `groupId:` and `topic: Topics.x`) in services/<name>/src must be in the map, and
 * every entry of the map in the code. A new publish or consumer group not added to the map (and so
 * missing from its KafkaUser's ACLs) fails here.
 */
const SERVICES = fileURLToPath(new URL('../../../services', import.meta.url));
const names = Object.keys(topicUsage) as ServiceName[];
const topicOfKey = (key: string): string => {
  const t = (Topics as Record<string, string>)[key];
  if (!t) throw new Error(`Topics.${key} is no topic`);
  return t;
};

function sources(dir: string): string[] {
  return (
    readdirSync(dir, { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts'))
      .map((e) => join(e.parentPath, e.name))
      // seed/ holds one-off tools (pnpm seed), not the service's process
      .filter((f) => !f.split('/').includes('seed'))
  );
}

/** A property of an object literal by name (`name: value`), or undefined. */
function property(o: ts.ObjectLiteralExpression, name: string): ts.Expression | undefined {
  for (const p of o.properties) if (ts.isPropertyAssignment(p) && p.name.getText() === name) return p.initializer;
  return undefined;
}

/** `Topics.x` → x, else undefined. */
const topicKey = (e: ts.Expression | undefined): string | undefined =>
  e && ts.isPropertyAccessExpression(e) && e.expression.getText() === 'Topics' ? e.name.text : undefined;

/**
 * What a service's code publishes and subscribes to, read from its syntax tree (so however the
 * code is laid out): `….publish(Topics.x, …)`; each object literal with `groupId:` and
 * `topic: Topics.x` (a subscription; its group a string, a template's fixed start, or a const of the
 * file); and each `new DeviceRegistryView({ groupPrefix: '…' })`.
 */
function usageInCode(service: ServiceName): { produces: string[]; consumes: string[] } {
  const produces = new Set<string>();
  const consumes = new Set<string>();
  let consumers = 0;
  for (const file of sources(join(SERVICES, service, 'src'))) {
    const tree = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const constants = new Map<string, string>();
    const subscriptions: ts.ObjectLiteralExpression[] = [];
    const visit = (node: ts.Node): void => {
      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && ts.isStringLiteralLike(node.initializer)) {
        constants.set(node.name.text, node.initializer.text);
      }
      if (ts.isCallExpression(node)) {
        const callee = node.expression;
        if (ts.isIdentifier(callee) && callee.text === 'consumeValidated') consumers++;
        const published =
          ts.isPropertyAccessExpression(callee) && callee.name.text === 'publish'
            ? topicKey(node.arguments[0])
            : ts.isIdentifier(callee) && callee.text === 'publishValidated' // publishValidated(bus, Topics.x, schema, …)
              ? topicKey(node.arguments[1])
              : undefined;
        if (published) produces.add(topicOfKey(published));
      }
      // platform's view of devices.v1 (DeviceRegistryView) is one subscription per instance of the service that builds it
      if (ts.isNewExpression(node) && node.expression.getText() === 'DeviceRegistryView') {
        const opts = node.arguments?.[0];
        const prefix = opts && ts.isObjectLiteralExpression(opts) ? property(opts, 'groupPrefix') : undefined;
        if (prefix && ts.isStringLiteralLike(prefix)) {
          consumers++;
          consumes.add(`${topicOfKey('devices')} ${prefix.text}-*`);
        }
      }
      // a groupId without a topic beside it is no Kafka consumer group (device groups)
      if (ts.isObjectLiteralExpression(node) && property(node, 'groupId') && topicKey(property(node, 'topic'))) subscriptions.push(node);
      ts.forEachChild(node, visit);
    };
    visit(tree);
    for (const o of subscriptions) {
      const id = property(o, 'groupId')!;
      let group: string;
      if (ts.isStringLiteralLike(id)) group = id.text;
      else if (ts.isTemplateExpression(id)) group = `${id.head.text}*`;
      else if (ts.isIdentifier(id) && constants.has(id.text)) group = constants.get(id.text)!;
      else throw new Error(`${file}: cannot read the group id ${id.getText()}`);
      consumes.add(`${topicOfKey(topicKey(property(o, 'topic'))!)} ${group}`);
    }
  }
  // every subscription goes through consumeValidated, which dead-letters to <topic>.dlq (topicsWrittenBy counts on it)
  if (consumers !== consumes.size) throw new Error(`${service}: ${consumers} consumeValidated calls, ${consumes.size} subscriptions read`);
  return { produces: [...produces].sort(), consumes: [...consumes].sort() };
}

const asKey = (c: ConsumerGroupUse): string => `${c.topic} ${c.group}${c.perInstance ? '*' : ''}`;

describe('topicUsage (which service produces and consumes which topic)', () => {
  it.each(names)('%s: the map is what its code publishes and subscribes to', (service) => {
    const code = usageInCode(service);
    expect(code.produces, 'topics published').toEqual([...topicUsage[service].produces].sort());
    expect(code.consumes, 'topic and consumer group of each subscription').toEqual(topicUsage[service].consumes.map(asKey).sort());
  });

  it('every service is mapped, and every topic but the pending registrations is consumed by someone', () => {
    expect(names.sort()).toEqual(['gateway', 'geofence', 'ingest', 'journey', 'ops-api']);
    const consumed = new Set(names.flatMap(topicsReadBy));
    // devices.pending.v1: ingest publishes registration requests, no service reads them yet (unknown-devices.ts
    // says ops-api lists them; it does not yet): this fails, as it should, once one does and the map is not told
    expect(Object.values(Topics).filter((t) => !consumed.has(t))).toEqual([Topics.devicesPending]);
  });

  it('a consumer writes the dead-letter topic of what it reads, and nothing it neither produces nor dead-letters', () => {
    expect(topicsWrittenBy('journey')).toEqual([Topics.events, dlqTopic(Topics.positions)].sort());
    expect(topicsReadBy('gateway')).toEqual([Topics.devices, Topics.events, Topics.positions, Topics.webNotifications].sort());
    expect(topicsOf('gateway')).not.toContain(Topics.commands);
  });
});
