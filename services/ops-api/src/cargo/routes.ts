import { cargoEndpoints } from '@corridor/contracts';
import { AppError, companyScope, registerEndpoint, type App } from '@corridor/platform';
import { documentToAttach } from '../documents/attach-request';
import type { DocumentsService } from '../documents/service';
import type { CargoService } from './service';

const [listCompany, processIdf, get, attachDocument, changeStatus, listAdmin, correct] = cargoEndpoints;

const dates = (q: { from?: string; to?: string }) => ({
  from: q.from ? new Date(q.from) : undefined,
  to: q.to ? new Date(q.to) : undefined,
});

export function cargoRoutes(app: App, svc: CargoService, deps: { documents: DocumentsService }): void {
  registerEndpoint(app, listCompany, async (req) => {
    const companyId = req.identity!.companyId;
    if (companyId === null) throw new AppError('FORBIDDEN', "This lists your company's cargo; association staff use GET /cargos");
    return svc.list({ ...req.query, ...dates(req.query), companyId });
  });
  registerEndpoint(app, processIdf, async (req, reply) =>
    reply.code(201).send(await svc.processIdf(req.body.documentId, req.identity!, req.id)),
  );
  registerEndpoint(app, get, async (req) => svc.get(req.params.cargoId, companyScope(req.identity!)));
  registerEndpoint(app, attachDocument, async (req, reply) => {
    const by = req.identity!;
    const scope = companyScope(by);
    const cargo = await svc.get(req.params.cargoId, scope);
    const documentId = await documentToAttach(req, deps.documents, by, {
      companyId: cargo.companyId,
      ownerType: 'cargo',
      ownerId: cargo.id,
    });
    return reply.code(201).send(deps.documents.withLink(await svc.attachDocument(cargo.id, documentId, by, scope, req.id), by.userId));
  });
  registerEndpoint(app, changeStatus, async (req) =>
    svc.changeStatus(req.params.cargoId, req.body, req.identity!, companyScope(req.identity!), req.id),
  );
  registerEndpoint(app, correct, async (req) =>
    svc.correct(req.params.cargoId, req.body, req.identity!, companyScope(req.identity!), req.id),
  );
  registerEndpoint(app, listAdmin, async (req) => svc.list({ ...req.query, ...dates(req.query) }));
}
