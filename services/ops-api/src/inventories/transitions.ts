import type { InventoryStatus } from '@corridor/contracts';

export type InventoryDecision = 'assign' | 'revoke' | 'transfer';

/** What may happen to an inventory item in each state (409 INVALID_TRANSITION lists these). */
export const allowedDecisions: Record<InventoryStatus, InventoryDecision[]> = {
  in_stock: ['assign'],
  assigned: ['revoke', 'transfer'],
  revoked: ['assign'],
};

/** Each decision as a message says it was made ("cannot be revoked"), one entry per decision. */
export const decisionDone: Record<InventoryDecision, string> = { assign: 'assigned', revoke: 'revoked', transfer: 'transferred' };

export const statusAfter: Record<InventoryDecision, InventoryStatus> = { assign: 'assigned', revoke: 'revoked', transfer: 'assigned' };
