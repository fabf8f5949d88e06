import { z } from 'zod';

export const Role = z.enum([
  'admin',
  'association_officer',
  'association_analyst',
  'dispatcher',
  'company_user',
  'clearing_agent',
  'device', // a tracker or an integration pushing positions with a device token
]);
export type Role = z.infer<typeof Role>;
export const allRoles = Role.options;
export const associationRoles: Role[] = ['admin', 'association_officer', 'association_analyst'];
export const staffRoles: Role[] = ['admin', 'association_officer', 'association_analyst', 'dispatcher'];
