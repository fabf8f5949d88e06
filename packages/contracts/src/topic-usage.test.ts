import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { dlqTopic, Topics } from './topics';
import { topicsOf, topicsReadBy, topicsWrittenBy, topicUsage, type ConsumerGroupUse } from './topic-usage';
import type { ServiceName } from './endpoint';

/**
 * The map against the services' code: every `bus.publish(Topics.x, …)` and every subscription
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
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts'))
    .map((e) => join(e.parentPath, e.name))
    // seed/ holds one-off tools (pnpm seed), not the service's process
    .filter((f) => !f.split('/').includes('seed'));
}

function usageInCode(service: ServiceName): { produces: string[]; consumes: string[] } {
  const produces = new Set<string>();
  const consumes = new Set<string>();
  let consumers = 0;
  for (const file of sources(join(SERVICES, service, 'src'))) {
    const text = readFileSync(file, 'utf8');
    consumers += text.match(/consumeValidated\(\{/g)?.length ?? 0;
    for (const m of text.matchAll(/\.publish\(\s*Topics\.(\w+)/g)) produces.add(topicOfKey(m[1]!));
    for (const m of text.matchAll(/groupId:\s*([^,\n}]+)/g)) {
      // the subscription's topic: the nearest `topic: Topics.x` around its groupId (the same object literal)
      const at = m.index;
      const near = [...text.slice(Math.max(0, at - 300), at + 300).matchAll(/topic:\s*Topics\.(\w+)/g)]
        .map((t) => ({ key: t[1]!, distance: Math.abs(t.index + Math.max(0, at - 300) - at) }))
        .sort((a, b) => a.distance - b.distance)[0];
      if (!near) continue; // a groupId that is no Kafka consumer group (device groups)
      const expr = m[1]!.trim();
      let group: string;
      const literal = /^'([^']+)'$/.exec(expr);
      const template = /^`([^`$]*)\$\{/.exec(expr);
      if (literal) group = `${literal[1]}`;
      else if (template) group = `${template[1]}*`;
      else {
        const constant = new RegExp(`const ${expr}\\s*=\\s*'([^']+)'`).exec(text);
        if (!constant) throw new Error(`${file}: cannot read the group id ${expr}`);
        group = constant[1]!;
      }
      consumes.add(`${topicOfKey(near.key)} ${group}`);
    }
    // platform's view of devices.v1 (DeviceRegistryView) is one subscription per instance of the service that builds it
    for (const m of text.matchAll(/new DeviceRegistryView\(\{[^}]*groupPrefix:\s*'([^']+)'/g)) {
      consumers++;
      consumes.add(`${topicOfKey('devices')} ${m[1]}-*`);
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
