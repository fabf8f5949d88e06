import type { Role, ShipmentStatus } from '@corridor/contracts';

/** Target of a resume from on_hold: the state the shipment was in before the hold. */
const RESUME = 'resume' as const;

export interface ShipmentTransition {
  from: ShipmentStatus;
  to: ShipmentStatus | typeof RESUME;
  roles: readonly Role[];
}

const transport: Role[] = ['company_user', 'dispatcher'];
const holders: Role[] = ['company_user', 'dispatcher', 'association_officer'];

/**
 * THE table of allowed shipment moves, per role (admins may make every move listed here, and no
 * other). The allowed-status-transitions endpoint and PATCH /status both read only this table.
 *
 *   draft → booked → in_transit → at_border → cleared → delivered
 *                        ↑__________________________|   (cleared → in_transit: on to the next border)
 *   in_transit → delivered (no border on the way); cancelled before departure or from a hold;
 *   on_hold from any moving state, resumed to the state before the hold.
 */
export const shipmentTransitions: readonly ShipmentTransition[] = [
  { from: 'draft', to: 'booked', roles: transport },
  { from: 'draft', to: 'cancelled', roles: transport },
  { from: 'booked', to: 'in_transit', roles: transport },
  { from: 'booked', to: 'cancelled', roles: transport },
  { from: 'booked', to: 'on_hold', roles: holders },
  { from: 'in_transit', to: 'at_border', roles: transport },
  { from: 'in_transit', to: 'delivered', roles: transport },
  { from: 'in_transit', to: 'on_hold', roles: holders },
  { from: 'at_border', to: 'cleared', roles: ['clearing_agent', 'dispatcher'] },
  { from: 'at_border', to: 'on_hold', roles: ['clearing_agent', 'dispatcher', 'association_officer'] },
  { from: 'cleared', to: 'in_transit', roles: transport },
  { from: 'cleared', to: 'delivered', roles: transport },
  { from: 'cleared', to: 'on_hold', roles: holders },
  { from: 'on_hold', to: RESUME, roles: holders },
  { from: 'on_hold', to: 'cancelled', roles: holders },
];

export const terminalShipmentStates: readonly ShipmentStatus[] = ['delivered', 'cancelled'];

/** The states the given roles may move a shipment to from `current` (resume resolved to `beforeHold`). */
export function allowedShipmentMoves(current: ShipmentStatus, roles: readonly Role[], beforeHold: ShipmentStatus | null): ShipmentStatus[] {
  const admin = roles.includes('admin');
  const out = new Set<ShipmentStatus>();
  for (const t of shipmentTransitions) {
    if (t.from !== current || !(admin || t.roles.some((r) => roles.includes(r)))) continue;
    if (t.to === RESUME) {
      if (beforeHold && beforeHold !== 'on_hold') out.add(beforeHold);
    } else out.add(t.to);
  }
  return [...out];
}
