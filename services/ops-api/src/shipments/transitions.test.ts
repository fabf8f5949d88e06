import { describe, expect, it } from 'vitest';
import { allRoles, ShipmentStatus, type Role } from '@corridor/contracts';
import { allowedShipmentMoves, shipmentTransitions, terminalShipmentStates } from './transitions';

const states = ShipmentStatus.options;

/**
 * The expected moves, written out by hand per role (a change to the table must change this too).
 * "on_hold>@" is the resume to the state before the hold.
 */
const expected: Record<Role, string[]> = {
  company_user: [
    'draft>booked',
    'draft>cancelled',
    'booked>in_transit',
    'booked>cancelled',
    'booked>on_hold',
    'in_transit>at_border',
    'in_transit>delivered',
    'in_transit>on_hold',
    'cleared>in_transit',
    'cleared>delivered',
    'cleared>on_hold',
    'on_hold>@',
    'on_hold>cancelled',
  ],
  dispatcher: [
    'draft>booked',
    'draft>cancelled',
    'booked>in_transit',
    'booked>cancelled',
    'booked>on_hold',
    'in_transit>at_border',
    'in_transit>delivered',
    'in_transit>on_hold',
    'at_border>cleared',
    'at_border>on_hold',
    'cleared>in_transit',
    'cleared>delivered',
    'cleared>on_hold',
    'on_hold>@',
    'on_hold>cancelled',
  ],
  clearing_agent: ['at_border>cleared', 'at_border>on_hold'],
  association_officer: ['booked>on_hold', 'in_transit>on_hold', 'at_border>on_hold', 'cleared>on_hold', 'on_hold>@', 'on_hold>cancelled'],
  association_analyst: [],
  device: [],
  admin: [],
};
expected.admin = [...new Set(Object.values(expected).flat())];

const holdable = ['booked', 'in_transit', 'at_border', 'cleared'] as const;

describe('shipment transitions table', () => {
  for (const role of allRoles) {
    it(`${role}: every (from, to) pair over all ${states.length}×${states.length} states, and every state before a hold`, () => {
      for (const from of states) {
        const priors = from === 'on_hold' ? holdable : [null];
        for (const prior of priors) {
          const allowed = allowedShipmentMoves(from, [role], prior);
          for (const to of states) {
            const key = from === 'on_hold' && to === prior ? 'on_hold>@' : `${from}>${to}`;
            expect(allowed.includes(to), `${role}: ${from} → ${to} (before hold: ${prior})`).toBe(expected[role].includes(key));
          }
        }
      }
    });
  }

  it('terminal states have no way out, for anyone', () => {
    for (const s of terminalShipmentStates) expect(allowedShipmentMoves(s, allRoles, null)).toEqual([]);
  });

  it('a resume without a remembered state offers nothing but cancelling', () => {
    expect(allowedShipmentMoves('on_hold', ['company_user'], null)).toEqual(['cancelled']);
  });

  it('multiple roles get the union of their moves', () => {
    expect(allowedShipmentMoves('at_border', ['company_user', 'clearing_agent'], null).sort()).toEqual(['cleared', 'on_hold']);
  });

  it('every state is reachable from draft and every non-terminal state can reach delivered', () => {
    const next = (s: string) => shipmentTransitions.filter((t) => t.from === s).map((t) => (t.to === 'resume' ? 'in_transit' : t.to));
    const reach = (start: string) => {
      const seen = new Set([start]);
      const todo = [start];
      while (todo.length)
        for (const n of next(todo.pop()!))
          if (!seen.has(n)) {
            seen.add(n);
            todo.push(n);
          }
      return seen;
    };
    expect([...reach('draft')].sort()).toEqual([...states].sort());
    for (const s of states)
      if (!terminalShipmentStates.includes(s)) expect(reach(s).has('delivered') || reach(s).has('cancelled'), s).toBe(true);
  });
});
