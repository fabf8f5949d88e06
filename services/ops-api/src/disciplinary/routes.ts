import { disciplinaryEndpoints } from '@corridor/contracts';
import { registerEndpoint, type App } from '@corridor/platform';
import type { DisciplinaryService } from './service';

const [list, create] = disciplinaryEndpoints;

export function disciplinaryRoutes(app: App, svc: DisciplinaryService): void {
  registerEndpoint(app, list, async (req) => {
    const q = req.query;
    const date = (v: string | undefined) => (v ? new Date(v) : undefined);
    return svc.list({
      companyId: q.companyId,
      subjectType: q.subjectType,
      subjectRef: q.subjectRef,
      sanctionTypes: q.sanctionType,
      complaintId: q.complaintId,
      activeAt: date(q.activeAt),
      from: date(q.from),
      to: date(q.to),
      limit: q.limit,
      offset: q.offset,
    });
  });
  registerEndpoint(app, create, async (req, reply) => reply.code(201).send(await svc.record(req.identity!, req.body)));
}
