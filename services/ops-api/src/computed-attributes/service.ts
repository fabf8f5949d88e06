import type { z } from 'zod';
import type { ComputedAttribute, ComputedAttributeInput, ComputedTestResult, ListQuery } from '@corridor/contracts';
import { notFound, type Identity, type Orm } from '@corridor/platform';
import { computedAttributes, type ComputedAttributeRow } from '../db/schema';
import { invalidField } from '../resources/pg-errors';
import { resourceService } from '../resources/resource-service';
import type { LatestPositions } from '../devices/latest-positions';
import { coerce, compileExpression, positionContext, type CompiledExpression } from './expression';

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

/** Computed attributes: the expression must compile (safely) before it is saved; test evaluates on the latest position. */
export function computedAttributesService(deps: { db: Orm; latest: LatestPositions; visibleDevice: (id: number, who: Identity) => Promise<unknown> }) {
  const crud = resourceService<ComputedAttributeRow, ComputedAttribute, ComputedAttributeInput, z.output<typeof ListQuery>>(deps.db, {
    name: 'Computed attribute', entityType: 'computed_attribute', table: computedAttributes, company: computedAttributes.companyId, shared: true,
    keywordColumns: [computedAttributes.description, computedAttributes.attribute, computedAttributes.expression],
    toEntity: toComputedAttribute,
    toValues: (i, companyId) => ({ description: i.description, attribute: i.attribute, expression: i.expression, type: i.type, priority: i.priority, companyId }),
    async validate(i) {
      compileOr400(i.expression);
    },
  });
  return {
    ...crud,
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
