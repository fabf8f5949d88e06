import { certificatesEndpoints } from '@corridor/contracts';
import { companyScope, registerEndpoint, type App } from '@corridor/platform';
import type { CertificatesService } from './service';

const [list, stats, get, apply, generate, viewLinks, approve, reject, verify] = certificatesEndpoints;

/** Certificate reads are never cached (no-store): the portal re-reads the status from PostgreSQL. */
export function certificateRoutes(app: App, svc: CertificatesService): void {
  registerEndpoint(app, list, async (req, reply) => {
    const q = req.query;
    reply.header('cache-control', 'no-store');
    return svc.list(
      {
        statuses: q.status,
        companyId: q.companyId,
        cargoId: q.cargoId,
        q: q.q,
        limit: q.limit,
        offset: q.offset,
        from: q.from ? new Date(q.from) : undefined,
        to: q.to ? new Date(q.to) : undefined,
      },
      companyScope(req.identity!),
    );
  });
  registerEndpoint(app, stats, async (req) => svc.stats(req.query, companyScope(req.identity!)));
  registerEndpoint(app, get, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return svc.get(req.params.id, companyScope(req.identity!));
  });
  registerEndpoint(app, apply, async (req, reply) =>
    reply.code(201).send(await svc.apply(req.identity!, companyScope(req.identity!), req.body.cargoId)),
  );
  registerEndpoint(app, generate, async (req) => svc.generate(req.identity!, companyScope(req.identity!), req.params.id, req.body));
  registerEndpoint(app, viewLinks, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return svc.viewLinks(req.params.id, req.identity!, req.query.ttlSeconds);
  });
  registerEndpoint(app, approve, async (req) => svc.decide(req.identity!, req.params.id, 'approve', req.body.note ?? null));
  registerEndpoint(app, reject, async (req) => svc.decide(req.identity!, req.params.id, 'reject', req.body.reason));
  registerEndpoint(app, verify, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return svc.verify(req.params.code);
  });
}
