import jexl from 'jexl';
import { z } from 'zod';
import type { PositionMessage } from '@corridor/contracts';

/**
 * Computed-attribute expressions in Traccar's JEXL syntax, evaluated by the jexl library: a parser
 * and tree-walking interpreter, never eval or Function. The AST is checked before use: no function
 * calls or transforms, no computed member access, and no names that reach JavaScript internals
 * (constructor, __proto__, prototype ...). Evaluation sees only a null-prototype copy of the position.
 */
const engine = new jexl.Jexl();
const FORBIDDEN = new Set([
  'constructor',
  '__proto__',
  'prototype',
  '__defineGetter__',
  '__defineSetter__',
  '__lookupGetter__',
  '__lookupSetter__',
  'valueOf',
  'toString',
  'hasOwnProperty',
  'isPrototypeOf',
]);

export type ComputedType = 'String' | 'Number' | 'Boolean';
export type ComputedValue = string | number | boolean | null;

export class ExpressionError extends Error {}

/**
 * A computed attribute as ops-api publishes it under cacheKeys.computedAttributes() (a JSON list)
 * for ingest to apply, as Traccar: to the devices linked to it (deviceIds: directly or through their
 * group), and of those only to its company's (companyId null: any company's). A definition without
 * deviceIds (published before links existed) applies to every device of its company.
 */
export const ComputedAttributeDefinition = z.object({
  id: z.number().int(),
  attribute: z.string().min(1),
  expression: z.string().min(1),
  type: z.enum(['String', 'Number', 'Boolean']),
  priority: z.number().int(),
  companyId: z.number().int().nullable(),
  deviceIds: z.array(z.number().int()).optional(),
});
export type ComputedAttributeDefinition = z.infer<typeof ComputedAttributeDefinition>;

interface AstNode {
  type: string;
  [k: string]: unknown;
}

function check(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(check);
  if (!node || typeof node !== 'object') return;
  const n = node as AstNode;
  if (n.type === 'FunctionCall') throw new ExpressionError(`function and transform calls are not allowed (${String(n.name)})`);
  if (n.type === 'Identifier' && FORBIDDEN.has(String(n.value))) throw new ExpressionError(`the name ${String(n.value)} is not allowed`);
  if (n.type === 'FilterExpression') {
    const key = n.expr as AstNode;
    if (!n.relative && key?.type === 'Literal' && typeof key.value === 'string' && FORBIDDEN.has(key.value)) {
      throw new ExpressionError(`the name ${key.value} is not allowed`);
    }
    if (!n.relative && key?.type !== 'Literal') throw new ExpressionError('computed member access (a[b]) is not allowed');
  }
  if (n.type === 'ObjectLiteral')
    for (const k of Object.keys((n.value as object) ?? {})) if (FORBIDDEN.has(k)) throw new ExpressionError(`the name ${k} is not allowed`);
  for (const v of Object.values(n)) if (v && typeof v === 'object') check(v);
}

export interface CompiledExpression {
  evaluate(context: Record<string, unknown>): ComputedValue;
}

/** Parses and checks an expression; throws ExpressionError with the reason when it is not acceptable. */
export function compileExpression(source: string): CompiledExpression {
  let expr: ReturnType<typeof engine.compile>;
  try {
    expr = engine.compile(source);
    check(expr._getAst());
  } catch (err) {
    if (err instanceof ExpressionError) throw err;
    throw new ExpressionError(`does not parse: ${(err as Error).message}`);
  }
  return {
    evaluate(context) {
      let v: unknown;
      try {
        v = expr.evalSync(context);
      } catch (err) {
        throw new ExpressionError(`evaluation failed: ${(err as Error).message}`);
      }
      if (v === undefined || v === null) return null;
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
      throw new ExpressionError(`the expression yields ${Array.isArray(v) ? 'an array' : typeof v}, not a value`);
    },
  };
}

/** Casts a result to the attribute's declared type, as Traccar's ComputedAttributesHandler does. */
export function coerce(value: ComputedValue, type: ComputedType): ComputedValue {
  if (value === null) return null;
  if (type === 'String') return String(value);
  if (type === 'Boolean') return typeof value === 'string' ? value === 'true' : Boolean(value);
  const n = typeof value === 'boolean' ? (value ? 1 : 0) : Number(value);
  return Number.isFinite(n) ? n : null;
}

const plain = (v: unknown): unknown => (v === null || ['string', 'number', 'boolean'].includes(typeof v) ? v : null);

/**
 * The names an expression sees: the position's attributes as top-level names (Traccar's JEXL
 * context), then the position's own fields, plus `attributes` as a map. Times are epoch ms.
 */
export function positionContext(p: PositionMessage): Record<string, unknown> {
  const ctx: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const attrs: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [k, v] of Object.entries(p.attributes)) if (!FORBIDDEN.has(k)) attrs[k] = plain(v);
  Object.assign(ctx, attrs);
  Object.assign(ctx, {
    deviceId: p.deviceId,
    protocol: p.protocol,
    valid: p.valid,
    latitude: p.latitude,
    longitude: p.longitude,
    speed: p.speed,
    course: p.course,
    altitude: p.altitude,
    accuracy: p.accuracy,
    satellites: p.satellites,
    hdop: p.hdop,
    ignition: p.ignition,
    odometer: p.odometer,
    power: p.power,
    battery: p.battery,
    alarm: p.alarm,
    fixTime: Date.parse(p.fixTime),
    serverTime: Date.parse(p.serverTime),
    attributes: attrs,
  });
  return ctx;
}
