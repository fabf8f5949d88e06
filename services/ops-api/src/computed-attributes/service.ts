import type { z } from 'zod';
import type { ComputedAttribute, ComputedAttributeInput, ComputedTestResult, LinkedListQuery } from '@corridor/contracts';
import { asc, desc } from 'drizzle-orm';
import { cacheKeys, notFound, type Cache, type Identity, type Logger, type Orm } from '@corridor/platform';
import { computedAttributes, type ComputedAttributeRow } from '../db/schema';
import { invalidField } from '../resources/pg-errors';
import { resourceService } from '../resources/resource-service';
import { linkedFilter } from '../object-links/linked-filter';
import { linkedDevices } from '../object-links/linked-devices';
import { publishedToCache } from '../resources/cache-published';
import type { LatestPositions } from '../devices/latest-positions';
import {
  coerce,
  compileExpression,
  positionContext,
  type CompiledExpression,
  type ComputedAttributeDefinition,
} from '@corridor/platform/computed-attributes';

const toComputedAttribute = (r: ComputedAttributeRow): ComputedAttribute => ({
  id: r.id,
  description: r.description,
  attribute: r.attribute,
  expression: r.expression,
  type: r.type,
  priority: r.priority,
  companyId: r.companyId,
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
  db: Orm;
  cache: Cache;
  logger: Logger;
  latest: LatestPositions;
  visibleDevice: (id: number, who: Identity) => Promise<unknown>;
}) {
  const crud = resourceService<ComputedAttributeRow, ComputedAttribute, ComputedAttributeInput, z.output<typeof LinkedListQuery>>(deps.db, {
    name: 'Computed attribute',
    entityType: 'computed_attribute',
    table: computedAttributes,
    company: computedAttributes.companyId,
    shared: true,
    keywordColumns: [computedAttributes.description, computedAttributes.attribute, computedAttributes.expression],
    filters: (q) => linkedFilter(deps.db, computedAttributes.id, 'attributeId', q),
    toEntity: toComputedAttribute,
    toValues: (i, companyId) => ({
      description: i.description,
      attribute: i.attribute,
      expression: i.expression,
      type: i.type,
      priority: i.priority,
      companyId,
    }),
    async validate(i) {
      compileOr400(i.expression);
    },
  });
  // as Traccar: an attribute applies to the devices linked to it (directly or through a group), none while it has no links
  const load = async (): Promise<ComputedAttributeDefinition[]> => {
    const linked = await linkedDevices(deps.db, 'attributeId');
    return (await deps.db.select().from(computedAttributes).orderBy(desc(computedAttributes.priority), asc(computedAttributes.id))).map(
      (r) => ({
        id: r.id,
        attribute: r.attribute,
        expression: r.expression,
        type: r.type,
        priority: r.priority,
        companyId: r.companyId,
        deviceIds: linked.get(r.id) ?? [],
      }),
    );
  };
  const published = publishedToCache(crud, {
    cache: deps.cache,
    key: cacheKeys.computedAttributes(),
    load,
    logger: deps.logger,
    what: 'computed attributes',
  });
  return {
    ...published,
    /** The typed value of the expression on the device's latest position; null when it yields nothing. */
    async test(deviceId: number, input: ComputedAttributeInput, who: Identity): Promise<ComputedTestResult | null> {
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
      return value;
    },
  };
}
export type ComputedAttributesService = ReturnType<typeof computedAttributesService>;
