import { companiesEndpoints, type Company, type CountryCode } from '@corridor/contracts';
import { companyScope, notFound, registerEndpoint, type App } from '@corridor/platform';
import type { CompanyRow } from '../db/schema';
import { actorOf } from '../resources/routes';
import type { CompaniesRepository } from './repository';

const [list, names, get, create, update] = companiesEndpoints;

const toCompany = (r: CompanyRow): Company => ({
  id: r.id,
  name: r.name,
  country: r.country as CountryCode,
  kind: r.kind,
  registrationNumber: r.registrationNumber,
  taxPin: r.taxPin,
  createdAt: r.createdAt.toISOString(),
});

export function companyRoutes(app: App, repo: CompaniesRepository): void {
  registerEndpoint(app, list, async (req) => {
    const q = req.query;
    const { rows, total } = await repo.list({
      id: companyScope(req.identity!),
      country: q.country,
      kind: q.kind,
      q: q.q,
      limit: q.limit,
      offset: q.offset,
    });
    return { items: rows.map(toCompany), total, limit: q.limit, offset: q.offset };
  });
  registerEndpoint(app, names, async (req) => {
    const q = req.query;
    const { rows, total } = await repo.list({ q: q.q, limit: q.limit, offset: q.offset });
    return {
      items: rows.map((r) => ({ id: r.id, name: r.name, country: r.country as CountryCode, kind: r.kind })),
      total,
      limit: q.limit,
      offset: q.offset,
    };
  });
  registerEndpoint(app, get, async (req) => {
    const scope = companyScope(req.identity!);
    const row = scope === undefined || scope === req.params.id ? await repo.get(req.params.id) : undefined;
    if (!row) throw notFound('Company', req.params.id);
    return toCompany(row);
  });
  registerEndpoint(app, create, async (req, reply) => reply.code(201).send(toCompany(await repo.create(req.body, actorOf(req)))));
  registerEndpoint(app, update, async (req) => {
    const row = await repo.update(req.params.id, req.body, actorOf(req));
    if (!row) throw notFound('Company', req.params.id);
    return toCompany(row);
  });
}
