import { withoutNulls, type Order, type OrderInput, type ListQuery } from '@corridor/contracts';
import type { z } from 'zod';
import type { Orm } from '@corridor/platform';
import { orders, type OrderRow } from '../db/schema';
import { resourceService } from '../resources/resource-service';

const toOrder = (r: OrderRow): Order => ({
  id: r.id,
  uniqueId: r.uniqueId,
  ...withoutNulls({ description: r.description, fromAddress: r.fromAddress, toAddress: r.toAddress }),
  companyId: r.companyId,
  attributes: r.attributes,
});

/** Orders (Traccar Order); uniqueId is unique within a company. */
export function ordersService(db: Orm) {
  return resourceService<OrderRow, Order, OrderInput, z.output<typeof ListQuery>>(db, {
    name: 'Order',
    entityType: 'order',
    table: orders,
    company: orders.companyId,
    shared: false,
    keywordColumns: [orders.uniqueId, orders.description, orders.fromAddress, orders.toAddress],
    toEntity: toOrder,
    toValues: (i, companyId) => ({
      uniqueId: i.uniqueId,
      description: i.description,
      fromAddress: i.fromAddress,
      toAddress: i.toAddress,
      companyId,
      attributes: i.attributes,
    }),
    unique: { orders_company_unique_idx: 'uniqueId' },
  });
}
export type OrdersService = ReturnType<typeof ordersService>;
