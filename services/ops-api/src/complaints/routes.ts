import { complaintsEndpoints } from '@corridor/contracts';
import { registerEndpoint, type App } from '@corridor/platform';
import type { ComplaintsService } from './service';

const [create, list, get, setStatus] = complaintsEndpoints;

export function complaintRoutes(app: App, svc: ComplaintsService): void {
  registerEndpoint(app, create, async (req, reply) => reply.code(201).send(await svc.file(req.identity!, req.body)));
  registerEndpoint(app, list, async (req) => {
    const q = req.query;
    return svc.list({
      statuses: q.status,
      subjectType: q.subjectType,
      categories: q.category,
      companyId: q.companyId,
      keyword: q.keyword,
      from: q.from ? new Date(q.from) : undefined,
      to: q.to ? new Date(q.to) : undefined,
      limit: q.limit,
      offset: q.offset,
    });
  });
  registerEndpoint(app, get, async (req) => svc.get(req.params.id));
  registerEndpoint(app, setStatus, async (req) => svc.setStatus(req.identity!, req.params.id, req.body));
}
