import { z } from 'zod';
import { notRef } from './references';
import { Attributes } from './common';
import { ListQuery, OwnerCompanyInput, resourceEndpoints, trackingWriters } from './resource-endpoints';

/** Order, in Traccar's shape (plus companyId). */
export const Order = z
  .object({
    id: z.number().int().positive(),
    uniqueId: z.string().describe('The order reference, unique within its company'),
    description: z.string().optional().describe('absent when none'),
    fromAddress: z.string().optional().describe('absent when none'),
    toAddress: z.string().optional().describe('absent when none'),
    companyId: z.number().int().nullable(),
    attributes: Attributes,
  })
  .meta({ id: 'Order' });
export type Order = z.infer<typeof Order>;

export const OrderInput = z
  .object({
    uniqueId: notRef(z.string().min(1).max(64), "the order's own reference"),
    description: z.string().max(1000).nullable().default(null),
    fromAddress: z.string().max(500).nullable().default(null),
    toAddress: z.string().max(500).nullable().default(null),
    companyId: OwnerCompanyInput,
    attributes: Attributes.default({}),
  })
  .meta({ id: 'OrderInput' });
export type OrderInput = z.infer<typeof OrderInput>;

export const ordersEndpoints = resourceEndpoints({
  id: 'orders',
  path: '/orders',
  noun: 'order',
  kind: 'order',
  tags: ['orders'],
  entity: Order,
  input: OrderInput,
  query: ListQuery,
  write: trackingWriters,
  companyScoped: true,
  description: 'Traccar Order. uniqueId is unique within a company (409). Keyword searches uniqueId, description and addresses.',
});
