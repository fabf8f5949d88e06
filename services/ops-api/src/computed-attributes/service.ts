import type { z } from 'zod';
import type { ComputedAttribute, ComputedAttributeInput, ComputedTestResult, ListQuery } from '@corridor/contracts';
import { asc, desc } from 'drizzle-orm';
import { cacheKeys, notFound, type Cache, type Identity, type Logger, type Orm } from '@corridor/platform';
import { computedAttributes, type ComputedAttributeRow } from '../db/schema';
import { invalidField } from '../resources/pg-errors';
import { resourceService } from '../resources/resource-service';
import type { LatestPositions } from '../devices/latest-positions';
import {
  coerce, compileExpression, positionContext, type CompiledExpression, type ComputedAttributeDefinition,
} from '@corridor/platform/computed-attributes';
import type { Actor } from '../resources/scope';

export const toComputedAttribute = (r: ComputedAttributeRow): ComputedAttribute => ({
  id: r.id, description: r.description, attribute: r.attribute, expression: r.expression, type: r.type, priority: r.priority, companyId: r.companyId,
});

function compileOr400(expression: string): CompiledExpression {
  try {
    return compileExpression(expression);
  } catch (err) {
    throw invalidField('expression', (err as Error).message);
  }
}

/**
 * Computed attributes: the expression must compile (safely) before it is saved; test evaluates on the latest position.
 * Every definition is published to the cache (cacheKeys.computedAttributes) at start and after each change, for ingest to apply.
 */
export function computedAttributesService(deps: {
  db: Orm; cache: Cache; logger: Logger; latest: LatestPositions; visibleDevice: (id: number, who: Identity) => Promise<unknown>;
}) {
  const crud = resourceService<ComputedAttributeRow, ComputedAttribute, ComputedAttributeInput, z.output<typeof ListQuery>>(deps.db, {
    name: 'Computed attribute', entityType: 'computed_attribute', table: computedAttributes, company: computedAttributes.companyId, shared: true,
    keywordColumns: [computedAttributes.description, computedAttributes.attribute, computedAttributes.expression],
    toEntity: toComputedAttribute,
    toValues: (i, companyId) => ({ description: i.description, attribute: i.attribute, expression: i.expression, type: i.type, priority: i.priority, companyId }),
    async validate(i) {
      compileOr400(i.expression);
    },
  });
  /** Writes the full list; publishes run one after another so the last one reads the latest committed state. */
  let publishing: Promise<number> = Promise.resolve(0);
  async function writeDefinitions(): Promise<number> {
    const rows = await deps.db.select().from(computedAttributes).orderBy(desc(computedAttributes.priority), asc(computedAttributes.id));
    const list: ComputedAttributeDefinition[] = rows.map((r) => ({
      id: r.id, attribute: r.attribute, expression: r.expression, type: r.type, priority: r.priority, companyId: r.companyId,
    }));
    await deps.cache.set(cacheKeys.computedAttributes(), JSON.stringify(list));
    return list.length;
  }
  function publish(): Promise<number> {
    publishing = publishing.catch(() => 0).then(writeDefinitions);
    return publishing;
  }
  /** After a committed change: a cache failure is logged, not reported to the caller whose write succeeded. */
  async function republish(): Promise<void> {
    await publish().catch((err: unknown) => deps.logger.warn({ err }, 'computed attributes not published to the cache'));
  }
  return {
    ...crud,
    /** Publishes every definition to the cache; returns how many. */
    publish,
    async create(input: ComputedAttributeInput, actor: Actor): Promise<ComputedAttribute> {
      const out = await crud.create(input, actor);
      await republish();
      return out;
    },
    async update(id: number, input: ComputedAttributeInput, actor: Actor): Promise<ComputedAttribute> {
      const out = await crud.update(id, input, actor);
      await republish();
      return out;
    },
    async remove(id: number, actor: Actor): Promise<void> {
      await crud.remove(id, actor);
      await republish();
    },
    async test(deviceId: number, input: ComputedAttributeInput, who: Identity): Promise<ComputedTestResult> {
      await deps.visibleDevice(deviceId, who);
      const compiled = compileOr400(input.expression);
      const position = (await deps.latest([deviceId])).get(deviceId);
      if (!position) throw notFound('Position of device', deviceId);
      let value;
      try {
        value = coerce(compiled.evaluate(positionContext(position)), input.type);
      } catch (err) {
        throw invalidField('expression', (err as Error).message);
      }
      return { attribute: input.attribute, type: input.type, value, positionId: position.id };
    },
  };
}
export type ComputedAttributesService = ReturnType<typeof computedAttributesService>;
