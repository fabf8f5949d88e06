import type { CargoStatus } from './cargo';
import type { Role } from './roles';

export interface CargoTransition {
  from: CargoStatus;
  to: CargoStatus;
  roles: readonly Role[];
}

/**
 * THE table of allowed cargo moves, per role (admins may make every move listed here, no other):
 * ops-api enforces it and the console offers exactly these moves.
 *
 *   submitted → validated → released → delivered
 *   submitted → rejected → submitted (corrected and resubmitted)
 *   submitted | rejected | validated → cancelled
 */
export const cargoTransitions: readonly CargoTransition[] = [
  { from: 'submitted', to: 'validated', roles: ['clearing_agent', 'association_officer'] },
  { from: 'submitted', to: 'rejected', roles: ['clearing_agent', 'association_officer'] },
  { from: 'submitted', to: 'cancelled', roles: ['company_user', 'clearing_agent'] },
  { from: 'rejected', to: 'submitted', roles: ['company_user', 'clearing_agent'] },
  { from: 'rejected', to: 'cancelled', roles: ['company_user', 'clearing_agent'] },
  { from: 'validated', to: 'released', roles: ['clearing_agent'] },
  { from: 'validated', to: 'cancelled', roles: ['company_user', 'clearing_agent'] },
  { from: 'released', to: 'delivered', roles: ['company_user', 'dispatcher'] },
];

export const terminalCargoStates: readonly CargoStatus[] = ['delivered', 'cancelled'];

/** The states the given roles may move a cargo to from `current`. */
export function allowedCargoMoves(current: CargoStatus, roles: readonly Role[]): CargoStatus[] {
  const admin = roles.includes('admin');
  return [
    ...new Set(cargoTransitions.filter((t) => t.from === current && (admin || t.roles.some((r) => roles.includes(r)))).map((t) => t.to)),
  ];
}
