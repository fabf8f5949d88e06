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

/** A company as the administrator registers or corrects it. */
export const CompanyInput = z
  .object({
    name: z.string().trim().min(2).max(200),
    country: CountryCode,
    kind: CompanyKind,
    registrationNumber: z.string().trim().max(64).nullable().default(null).describe('empty or null: none'),
    taxPin: z.string().trim().max(32).nullable().default(null).describe('empty or null: none'),
  })
  .meta({ id: 'CompanyInput' });
export type CompanyInput = z.infer<typeof CompanyInput>;

export const CompaniesQuery = Pagination.extend({
  country: CountryCode.optional(),
  kind: CompanyKind.optional(),
  q: z.string().max(100).optional().describe('Part of the name'),
});

/** A company as anyone signed in may know it: its name, country and kind (not its registry numbers). */
export const CompanyName = Company.pick({ id: true, name: true, country: true, kind: true }).meta({ id: 'CompanyName' });
export type CompanyName = z.infer<typeof CompanyName>;

export const CompanyNamesQuery = Pagination.extend({
  q: z.string().max(100).optional().describe('Part of the name'),
  limit: z.coerce.number().int().min(1).max(1000).default(1000),
});

const tags = ['companies'];
export const companiesEndpoints = [
  defineEndpoint({
    id: 'companies.list',
    method: 'get',
    path: '/companies',
    service: 'ops-api',
    tags,
    companyScoped: true,
    summary: 'List companies (company users see their own company only)',
    access: 'authenticated',
    request: { query: CompaniesQuery },
    responses: { 200: { description: 'A page of companies', schema: page(Company, 'CompanyPage') } },
  }),
  defineEndpoint({
    id: 'companies.names',
    method: 'get',
    path: '/companies/names',
    service: 'ops-api',
    tags,
    summary: 'Every company by name, country and kind (no registry numbers)',
    access: 'authenticated',
    description:
      'For choosing another company (a complaint is filed against any company); a company user sees every name here, and only their own company in full.',
    request: { query: CompanyNamesQuery },
    responses: { 200: { description: 'A page of company names', schema: page(CompanyName, 'CompanyNamePage') } },
  }),
  defineEndpoint({
    id: 'companies.get',
    method: 'get',
    path: '/companies/{id}',
    service: 'ops-api',
    tags,
    companyScoped: true,
    summary: 'One company (a company user reads their own company only; another answers 404)',
    access: 'authenticated',
    request: { params: idParam('company') },
    responses: { 200: { description: 'The company', schema: Company } },
  }),
  defineEndpoint({
    id: 'companies.create',
    method: 'post',
    path: '/companies',
    service: 'ops-api',
    tags,
    summary: 'Register a company (administrators; audited)',
    access: ['admin'],
    request: { body: CompanyInput },
    responses: { 201: { description: 'The registered company', schema: Company } },
  }),
  defineEndpoint({
    id: 'companies.update',
    method: 'put',
    path: '/companies/{id}',
    service: 'ops-api',
    tags,
    summary: "Correct a company's name, country, kind or registry numbers (administrators; audited)",
    access: ['admin'],
    request: { params: idParam('company'), body: CompanyInput },
    responses: { 200: { description: 'The company as corrected', schema: Company } },
  }),
] as const;
