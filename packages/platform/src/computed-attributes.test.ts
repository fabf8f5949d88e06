import { describe, expect, it } from 'vitest';
import { PositionMessage, positionId } from '@corridor/contracts';
import { coerce, compileExpression, ExpressionError, positionContext } from './computed-attributes';

const position = PositionMessage.parse({
  id: positionId(7, 1767225600000),
  deviceId: 7,
  uniqueId: '356307042441013',
  protocol: 'teltonika',
  fixTime: '2026-01-01T00:00:00Z',
  serverTime: '2026-01-01T00:00:01Z',
  valid: true,
  latitude: -1.2921,
  longitude: 36.8219,
  speed: 50,
  course: 180,
  ignition: true,
  odometer: 123456,
  power: 27.9,
  attributes: { fuel: 40, io239: 1, driverUniqueId: 'RFID-9', temp1: -18.5 },
});
const evaluate = (expr: string) => compileExpression(expr).evaluate(positionContext(position));

describe('computed attribute expressions', () => {
  it('do arithmetic with precedence', () => {
    expect(evaluate('speed * 1.852')).toBeCloseTo(92.6, 6);
    expect(evaluate('fuel / 4 + 2 * 3')).toBe(16);
    expect(evaluate('(fuel + 10) % 7')).toBe(1);
    expect(evaluate('0 - temp1')).toBe(18.5);
    expect(evaluate('odometer / 1000')).toBe(123.456);
  });

  it('compare and combine booleans', () => {
    expect(evaluate('speed > 40 && ignition')).toBe(true);
    expect(evaluate('speed >= 50 && speed <= 50')).toBe(true);
    expect(evaluate('power < 24 || !valid')).toBe(false);
    expect(evaluate('driverUniqueId == "RFID-9"')).toBe(true);
    expect(evaluate('io239 != 1')).toBe(false);
  });

  it('choose with the ternary and read attributes by path', () => {
    expect(evaluate('speed > 40 ? "moving" : "slow"')).toBe('moving');
    expect(evaluate('attributes.fuel < 10 ? "low" : attributes.fuel < 50 ? "half" : "full"')).toBe('half');
    expect(evaluate('missing')).toBeNull();
    expect(evaluate('"abc" + fuel')).toBe('abc40');
    expect(evaluate('this')).toBeNull(); // an unknown name, not JavaScript's this
  });

  it('refuse code injection: function calls, transforms, prototype access, computed keys, assignment', () => {
    for (const expr of [
      'constructor.constructor("return process")()',
      'attributes.constructor',
      'attributes["constructor"]',
      'attributes["__proto__"]',
      'attributes.__proto__',
      'attributes[driverUniqueId]',
      'speed.toString',
      'process.exit(1)',
      'require("fs")',
      'speed|upper',
      'x = 1',
      '{constructor: 1}',
      'attributes.prototype',
    ]) {
      expect(() => compileExpression(expr).evaluate(positionContext(position)), expr).toThrow(ExpressionError);
    }
  });

  it('refuse what does not parse', () => {
    for (const expr of ['speed *', '"unterminated', 'speed >> 2', 'speed speed'])
      expect(() => compileExpression(expr), expr).toThrow(ExpressionError);
  });

  it('coerce results to the declared type', () => {
    expect(coerce(92.6, 'String')).toBe('92.6');
    expect(coerce('12.5', 'Number')).toBe(12.5);
    expect(coerce('abc', 'Number')).toBeNull();
    expect(coerce(true, 'Number')).toBe(1);
    expect(coerce(0, 'Boolean')).toBe(false);
    expect(coerce('true', 'Boolean')).toBe(true);
    expect(coerce(null, 'String')).toBeNull();
  });
});
