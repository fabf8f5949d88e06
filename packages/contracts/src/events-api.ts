import { z } from 'zod';
import { ref } from './references';
import { defineEndpoint } from './endpoint';
import { IsoDateTime, repeated } from './common';
import { Event, EventType } from './events';

export const EventIdParam = z.object({ id: ref('event', z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER)) });

export const EventsQuery = z.object({
  deviceId: repeated(ref('device', z.coerce.number().int().positive())).optional(),
  groupId: ref('group', z.coerce.number().int().positive()).optional().describe('Every device of that group'),
  from: IsoDateTime,
  to: IsoDateTime,
  type: repeated(EventType).optional(),
  limit: z.coerce.number().int().min(1).max(10000).default(1000),
});

const tags = ['events'];
export const eventsEndpoints = [
  defineEndpoint({
    id: 'events.list',
    method: 'get',
    path: '/events',
    service: 'ops-api',
    tags,
    companyScoped: true,
    summary: 'Events of devices over a period',
    access: 'authenticated',
    description: 'deviceId (repeatable) or groupId is required, with from and to; oldest first; optionally only some types.',
    request: { query: EventsQuery },
    responses: { 200: { description: 'Events', schema: z.array(Event) } },
  }),
  defineEndpoint({
    id: 'events.get',
    method: 'get',
    path: '/events/{id}',
    service: 'ops-api',
    tags,
    companyScoped: true,
    summary: 'One event',
    access: 'authenticated',
    request: { params: EventIdParam },
    responses: { 200: { description: 'The event', schema: Event } },
  }),
] as const;
