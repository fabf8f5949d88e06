import { describe, expect, it } from 'vitest';
import { CargoStatus } from './cargo';
import { allRoles, type Role } from './roles';
import { allowedCargoMoves, cargoTransitions, terminalCargoStates } from './cargo-transitions';

const states = CargoStatus.options;

/** The expected moves, written out by hand per role (a change to the table must change this too). */
const expected: Record<Role, string[]> = {
  company_user: ['submitted>cancelled', 'rejected>submitted', 'rejected>cancelled', 'validated>cancelled', 'released>delivered'],
  clearing_agent: [
    'submitted>validated',
    'submitted>rejected',
    'submitted>cancelled',
    'rejected>submitted',
    'rejected>cancelled',
    'validated>released',
    'validated>cancelled',
  ],
  association_officer: ['submitted>validated', 'submitted>rejected'],
  dispatcher: ['released>delivered'],
  association_analyst: [],
  device: [],
  admin: [],
};
expected.admin = [...new Set(Object.values(expected).flat())];

describe('cargo transitions table', () => {
  for (const role of allRoles) {
    it(`${role}: every (from, to) pair over all ${states.length}×${states.length} states`, () => {
      for (const from of states) {
        const allowed = allowedCargoMoves(from, [role]);
        for (const to of states) expect(allowed.includes(to), `${role}: ${from} → ${to}`).toBe(expected[role].includes(`${from}>${to}`));
      }
    });
  }

  it('terminal states have no way out and no state moves to itself', () => {
    for (const s of terminalCargoStates) expect(allowedCargoMoves(s, allRoles)).toEqual([]);
    for (const t of cargoTransitions) expect(t.from).not.toBe(t.to);
  });

  it('every state is reachable from submitted', () => {
    const seen = new Set<string>(['submitted']);
    const todo = ['submitted'];
    while (todo.length) {
      const s = todo.pop()!;
      for (const t of cargoTransitions)
        if (t.from === s && !seen.has(t.to)) {
          seen.add(t.to);
          todo.push(t.to);
        }
    }
    expect([...seen].sort()).toEqual([...states].sort());
  });
});
