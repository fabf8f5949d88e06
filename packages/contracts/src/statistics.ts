import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { IsoDateTime } from './common';

/** Server-wide counts for one UTC day, in Traccar's Statistics shape (fields the platform measures). */
export const Statistics = z
  .object({
    captureTime: IsoDateTime.describe('Start of the UTC day'),
    activeDevices: z.number().int().describe('Devices that sent at least one position that day'),
    messagesReceived: z
      .number()
      .int()
      .describe('Position rows written that day (by server time; a redelivered position counts until ClickHouse merges it away)'),
    messagesStored: z.number().int().describe('Distinct positions stored for that day (after dedupe)'),
    events: z.number().int().describe('Events generated that day'),
    protocols: z.record(z.string(), z.number().int()).describe('Positions received per protocol'),
  })
  .meta({ id: 'Statistics' });
export type Statistics = z.infer<typeof Statistics>;

export const StatisticsQuery = z.object({ from: IsoDateTime, to: IsoDateTime });

export const statisticsEndpoints = [
  defineEndpoint({
    id: 'statistics.get',
    method: 'get',
    path: '/statistics',
    service: 'ops-api',
    tags: ['statistics'],
    summary: 'Server-wide counts per day',
    access: ['admin', 'association_analyst'],
    description: 'One entry per UTC day of [from, to] with data (at most 366 days; 400 naming from/to otherwise), from ClickHouse.',
    request: { query: StatisticsQuery },
    responses: { 200: { description: 'Statistics per day', schema: z.array(Statistics) } },
  }),
] as const;
