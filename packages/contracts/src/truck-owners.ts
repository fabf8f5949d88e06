import { z } from 'zod';
import { ref } from './references';
import { defineEndpoint } from './endpoint';
import { Attributes } from './common';
import { ListQuery, OwnerCompanyInput, resourceEndpoints, trackingWriters } from './resource-endpoints';

/**
 * Trucks and their owners. An owner (a person or a firm owning vehicles a transporter operates)
 * holds its trucks: /truck-owners is the CRUD of owners, each carrying its trucks, and PUT
 * replaces the owner's truck list (a truck with an id is kept and updated, one without is added,
 * one left out is removed). /trucks-owners is the read side the other way round: every truck with
 * its owner, searchable by plate.
 */
export const Truck = z
  .object({
    id: z.number().int().positive(),
    ownerId: z.number().int(),
    plateNumber: z.string().describe('Registration plate, upper case without spaces (e.g. KCA123A, T123ABC)'),
    trailerPlate: z.string().nullable(),
    make: z.string().nullable(),
    model: z.string().nullable(),
    year: z.number().int().nullable(),
    deviceId: z.number().int().nullable().describe('The tracker fitted to the truck, if any'),
    attributes: Attributes,
  })
  .meta({ id: 'Truck' });
export type Truck = z.infer<typeof Truck>;

const plate = z
  .string()
  .transform((s) => s.replace(/[\s-]/g, '').toUpperCase())
  .pipe(z.string().regex(/^[A-Z0-9]{2,12}$/, '2 to 12 letters and digits'));

export const TruckInput = z
  .object({
    id: ref('truck', z.number().int().positive()).optional().describe('Present = keep and update that truck of this owner'),
    plateNumber: plate,
    trailerPlate: plate.nullable().default(null),
    make: z.string().max(64).nullable().default(null),
    model: z.string().max(64).nullable().default(null),
    year: z.number().int().min(1950).max(2100).nullable().default(null),
    deviceId: ref('device', z.number().int().positive()).nullable().default(null),
    attributes: Attributes.default({}),
  })
  .meta({ id: 'TruckInput' });
export type TruckInput = z.infer<typeof TruckInput>;

export const TruckOwner = z
  .object({
    id: z.number().int().positive(),
    name: z.string(),
    idNumber: z.string().nullable().describe('National id or company registration number'),
    phone: z.string().nullable(),
    email: z.string().nullable(),
    address: z.string().nullable(),
    companyId: z.number().int().nullable().describe('The transporter company operating the trucks'),
    trucks: z.array(Truck),
    attributes: Attributes,
  })
  .meta({ id: 'TruckOwner' });
export type TruckOwner = z.infer<typeof TruckOwner>;

export const TruckOwnerInput = z
  .object({
    name: z.string().min(1).max(128),
    idNumber: z.string().max(64).nullable().default(null),
    phone: z.string().max(32).nullable().default(null),
    email: z.email().nullable().default(null),
    address: z.string().max(500).nullable().default(null),
    companyId: OwnerCompanyInput,
    trucks: z.array(TruckInput).max(500).default([]),
    attributes: Attributes.default({}),
  })
  .meta({ id: 'TruckOwnerInput' });
export type TruckOwnerInput = z.infer<typeof TruckOwnerInput>;

export const TruckOwnerSummary = TruckOwner.pick({ id: true, name: true, idNumber: true, phone: true, email: true, companyId: true }).meta({
  id: 'TruckOwnerSummary',
});

export const TruckWithOwner = Truck.extend({ owner: TruckOwnerSummary }).meta({ id: 'TruckWithOwner' });
export type TruckWithOwner = z.infer<typeof TruckWithOwner>;

export const TrucksOwnersQuery = ListQuery.extend({
  ownerId: ref('truckOwner', z.coerce.number().int().positive()).optional(),
  deviceId: ref('device', z.coerce.number().int().positive()).optional(),
});

export const truckOwnersEndpoints = [
  ...resourceEndpoints({
    id: 'truck-owners',
    path: '/truck-owners',
    noun: 'truck owner',
    kind: 'truckOwner',
    tags: ['trucks'],
    entity: TruckOwner,
    input: TruckOwnerInput,
    query: ListQuery,
    write: trackingWriters,
    companyScoped: true,
    description:
      'Owners with their trucks. PUT replaces the truck list (id = keep). Plates are unique platform-wide (409 naming the plate). ' +
      'Keyword searches owner name, id number and phone.',
  }),
  defineEndpoint({
    id: 'trucks-owners.list',
    method: 'get',
    path: '/trucks-owners',
    service: 'ops-api',
    tags: ['trucks'],
    companyScoped: true,
    summary: 'Trucks with their owners',
    access: 'authenticated',
    description: 'Every visible truck with its owner, ordered by plate. Keyword searches plate, trailer plate and owner name.',
    request: { query: TrucksOwnersQuery },
    responses: { 200: { description: 'Trucks', schema: z.array(TruckWithOwner) } },
  }),
] as const;
