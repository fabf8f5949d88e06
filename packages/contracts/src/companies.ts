import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { Pagination, page } from './common';
import { idParam } from './references';

/** East African Community members and neighbours the corridors serve (ISO 3166-1 alpha-2). */
export const CountryCode = z.enum(['KE', 'TZ', 'UG', 'RW', 'BI', 'SS', 'CD', 'ET', 'ZM', 'MW', 'MZ']);
export type CountryCode = z.infer<typeof CountryCode>;

export const CompanyKind = z.enum(['transporter', 'shipper', 'clearing_agent', 'association']);
export type CompanyKind = z.infer<typeof CompanyKind>;

export const Company = z
  .object({
    id: z.number().int().positive(),
    name: z.string(),
    country: CountryCode,
    kind: CompanyKind,
    registrationNumber: z.string().nullable().describe('Companies registry number (e.g. Kenya BRS PVT-..., Tanzania BRELA)'),
    taxPin: z.string().nullable().describe('KRA PIN (Kenya, e.g. P051234567X) or TRA TIN (Tanzania, 9 digits)'),
    createdAt: z.iso.datetime({ offset: true }),
  })
  .meta({ id: 'Company' });
export type Company = z.infer<typeof Company>;

export const CompaniesQuery = Pagination.extend({
  country: CountryCode.optional(),
  kind: CompanyKind.optional(),
  q: z.string().max(100).optional().describe('Part of the name'),
});

const tags = ['companies'];
export const companiesEndpoints = [
  defineEndpoint({
    id: 'companies.list', method: 'get', path: '/companies', service: 'ops-api', tags, companyScoped: true,
    summary: 'List companies (company users see their own company only)', access: 'authenticated',
    request: { query: CompaniesQuery },
    responses: { 200: { description: 'A page of companies', schema: page(Company, 'CompanyPage') } },
  }),
  defineEndpoint({
    id: 'companies.get', method: 'get', path: '/companies/{id}', service: 'ops-api', tags, companyScoped: true,
    summary: 'One company (a company user reads their own company only; another answers 404)', access: 'authenticated',
    request: { params: idParam('company') },
    responses: { 200: { description: 'The company', schema: Company } },
  }),
] as const;
