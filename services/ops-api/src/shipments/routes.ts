import { shipmentsEndpoints } from '@corridor/contracts';
import { AppError, companyScope, registerEndpoint, type App } from '@corridor/platform';
import { documentToAttach } from '../documents/attach-request';
import type { PdfTextReader } from '../documents/pdf-text';
import type { DocumentsService } from '../documents/service';
import type { ShipmentsService } from './service';
import { extractTransportDocument } from './transport-document';

const [listCompany, create, update, changeStatus, allowed, addProgress, attachDocument, processTransportDocument, listAdmin, get] =
  shipmentsEndpoints;

const dates = (q: { from?: string; to?: string }) => ({
  from: q.from ? new Date(q.from) : undefined,
  to: q.to ? new Date(q.to) : undefined,
});

export function shipmentRoutes(app: App, svc: ShipmentsService, deps: { documents: DocumentsService; pdf: PdfTextReader }): void {
  registerEndpoint(app, listCompany, async (req) => {
    const q = req.query;
    return svc.list({ ...q, ...dates(q), companyId: svc.companyOf(req.identity!) });
  });
  registerEndpoint(app, create, async (req, reply) => reply.code(201).send(await svc.create(req.body, req.identity!, req.id)));
  registerEndpoint(app, update, async (req) =>
    svc.update(req.params.shipmentId, req.body, req.identity!, companyScope(req.identity!), req.id),
  );
  registerEndpoint(app, changeStatus, async (req) =>
    svc.changeStatus(req.params.shipmentId, req.body, req.identity!, companyScope(req.identity!), req.id),
  );
  registerEndpoint(app, allowed, async (req) => svc.allowedTransitions(req.params.shipmentId, req.identity!, companyScope(req.identity!)));
  registerEndpoint(app, addProgress, async (req, reply) =>
    reply.code(201).send(await svc.addProgress(req.params.shipmentId, req.body, req.identity!, companyScope(req.identity!))),
  );
  registerEndpoint(app, attachDocument, async (req, reply) => {
    const by = req.identity!;
    const scope = companyScope(by);
    const shipment = await svc.get(req.params.shipmentId, scope);
    const documentId = await documentToAttach(req, deps.documents, by, {
      companyId: shipment.companyId,
      ownerType: 'shipment',
      ownerId: shipment.id,
    });
    const doc = await svc.attachDocument(shipment.id, documentId, by, scope, req.id);
    return reply.code(201).send(deps.documents.withLink(doc, by.userId));
  });
  registerEndpoint(app, processTransportDocument, async (req) => {
    const { record, bytes } = await deps.documents.read(req.body.documentId, companyScope(req.identity!));
    if (record.contentType !== 'application/pdf') {
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', `A bill of lading or CMR is read from a PDF, not ${record.contentType}`, {
        accepted: ['application/pdf'],
      });
    }
    return extractTransportDocument(record.id, (await deps.pdf.read(bytes)).lines);
  });
  registerEndpoint(app, listAdmin, async (req) => {
    const q = req.query;
    return svc.list({ ...q, ...dates(q) });
  });
  registerEndpoint(app, get, async (req) => svc.get(req.params.shipmentId, companyScope(req.identity!)));
}
