import { z } from 'zod';
import type { PositionMessage } from '@corridor/contracts';
import { cacheKeys, counter, PublishedList, type Cache, type Logger } from '@corridor/platform';
import {
  coerce,
  compileExpression,
  ComputedAttributeDefinition,
  positionContext,
  type CompiledExpression,
} from '@corridor/platform/computed-attributes';

export const computedAttributeErrors = counter(
  'ingest_computed_attribute_errors_total',
  'Computed-attribute expressions that failed to compile or evaluate (the position is kept without that attribute)',
  ['stage'],
);

const Definitions = z.array(ComputedAttributeDefinition);

interface Compiled {
  def: ComputedAttributeDefinition;
  expr: CompiledExpression;
  /** The devices it applies to (its links); undefined: every device of its company. */
  devices?: ReadonlySet<number>;
}

/**
 * Traccar's computed attributes on incoming positions: the definitions ops-api publishes under
 * cacheKeys.computedAttributes(), re-read at most every reloadMs and compiled once per change,
 * applied highest priority first (then by id) into position.attributes. Each expression sees the
 * results of those before it. A failing expression is counted and skipped, never fails the position.
 */
export class ComputedAttributes {
  private compiled: Compiled[] = [];
  private readonly source: PublishedList<ComputedAttributeDefinition>;

  constructor(private readonly deps: { cache: Cache; logger: Logger; reloadMs?: number; now?: () => number }) {
    this.source = new PublishedList({
      ...deps,
      key: cacheKeys.computedAttributes(),
      what: 'computed attributes',
      schema: Definitions,
      whenMissing: 'empty',
      onProblem: () => computedAttributeErrors.inc({ stage: 'load' }),
      apply: (defs) => this.compile(defs),
    });
  }

  /** Re-reads the definitions when the last read is older than reloadMs; a cache failure keeps the current ones. */
  refresh(): Promise<void> {
    return this.source.refresh();
  }

  /** How many definitions are in effect. */
  get size(): number {
    return this.compiled.length;
  }

  /** The position with every applicable computed attribute set; the input is not changed. */
  apply(position: PositionMessage, companyId: number | null | undefined): PositionMessage {
    let out = position;
    for (const { def, expr, devices } of this.compiled) {
      if (def.companyId !== null && def.companyId !== companyId) continue;
      if (devices && !devices.has(position.deviceId)) continue;
      let value;
      try {
        value = coerce(expr.evaluate(positionContext(out)), def.type);
      } catch (err) {
        computedAttributeErrors.inc({ stage: 'evaluate' });
        this.deps.logger.debug(
          { computedAttributeId: def.id, attribute: def.attribute, deviceId: position.deviceId, reason: (err as Error).message },
          'computed attribute failed',
        );
        continue;
      }
      // as Traccar: an expression that yields nothing leaves the attribute as it was
      if (value === null) continue;
      out = { ...out, attributes: { ...out.attributes, [def.attribute]: value } };
    }
    return out;
  }

  private compile(defs: ComputedAttributeDefinition[]): void {
    const compiled: Compiled[] = [];
    for (const def of defs) {
      try {
        compiled.push({ def, expr: compileExpression(def.expression), ...(def.deviceIds ? { devices: new Set(def.deviceIds) } : {}) });
      } catch (err) {
        computedAttributeErrors.inc({ stage: 'compile' });
        this.deps.logger.warn(
          { computedAttributeId: def.id, reason: (err as Error).message },
          'computed attribute does not compile; skipped',
        );
      }
    }
    compiled.sort((a, b) => b.def.priority - a.def.priority || a.def.id - b.def.id);
    this.compiled = compiled;
    this.deps.logger.debug({ definitions: compiled.length }, 'computed attributes loaded');
  }
}
