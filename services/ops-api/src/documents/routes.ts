import { z } from 'zod';
import { DocumentUploadForm, documentsEndpoints } from '@corridor/contracts';
import { AppError, checkReferences, companyScope, registerEndpoint, type App, type Identity } from '@corridor/platform';
import { formFieldError, readMultipart } from './multipart-upload';
import type { DocumentsService, StoreDocumentInput } from './service';

const [upload, list, get, download] = documentsEndpoints;

const UploadFields = DocumentUploadForm.omit({ file: true });

/** Validates the multipart text fields (400 naming the first bad one). */
function parseUploadFields<S extends z.ZodType>(schema: S, fields: Record<string, string>): z.output<S> {
  const r = schema.safeParse(fields);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  const details = r.error.issues.map((i) => ({ in: 'body', path: i.path.join('.'), message: i.message }));
  throw new AppError('VALIDATION_FAILED', `body.${issue.path.join('.') || '(form)'}: ${issue.message}`, details);
}

/** The company an upload belongs to: a company user's own; staff must name one. */
function uploadCompany(identity: Identity, requested: number | undefined): number {
  const scope = companyScope(identity);
  if (scope === undefined) {
    if (requested === undefined) throw formFieldError('companyId', 'required for association staff');
    return requested;
  }
  if (scope < 0) throw new AppError('FORBIDDEN', 'Your account has no company');
  if (requested !== undefined && requested !== scope) throw new AppError('FORBIDDEN', 'You can upload documents for your own company only');
  return scope;
}

/** Reads a multipart upload and stores it (shared by /documents/upload and the attach endpoints). */
export async function storeUpload(
  svc: DocumentsService,
  req: Parameters<typeof readMultipart>[0],
  identity: Identity,
  defaults: Partial<Pick<StoreDocumentInput, 'ownerType' | 'ownerId' | 'companyId'>> = {},
  /** The ids the form names, checked as registerEndpoint checks a JSON body's (multipart bodies are parsed here). */
  checkForm?: (form: Record<string, unknown>) => Promise<void>,
) {
  const { file, fields } = await readMultipart(req, svc.maxBytes);
  const form = parseUploadFields(UploadFields, fields);
  await checkForm?.(form);
  if (!file) throw formFieldError('file', 'a file part is required');
  const companyId = defaults.companyId ?? uploadCompany(identity, form.companyId);
  return svc.store({
    companyId,
    kind: form.kind,
    filename: file.filename,
    contentType: file.mimetype,
    bytes: file.bytes,
    ownerType: defaults.ownerType ?? form.ownerType ?? null,
    ownerId: defaults.ownerId ?? form.ownerId ?? null,
    uploadedBy: identity,
  });
}

export function documentRoutes(app: App, svc: DocumentsService): void {
  registerEndpoint(app, upload, async (req, reply) => {
    const record = await storeUpload(svc, req, req.identity!, {}, (form) =>
      checkReferences(app, upload, { identity: req.identity, body: form }),
    );
    return reply.code(201).send(svc.withLink(record, req.identity!.userId));
  });
  registerEndpoint(app, list, async (req) => {
    const q = req.query;
    return svc.list({
      companyId: q.companyId,
      kind: q.kind,
      ownerType: q.ownerType,
      ownerId: q.ownerId,
      from: q.from ? new Date(q.from) : undefined,
      to: q.to ? new Date(q.to) : undefined,
      limit: q.limit,
      offset: q.offset,
    });
  });
  registerEndpoint(app, get, async (req) =>
    svc.withLink(await svc.get(req.params.documentId, companyScope(req.identity!)), req.identity!.userId),
  );
  registerEndpoint(app, download, async (req, reply) => {
    const { record, bytes } = await svc.download(req.params.documentId, req.query, req.identity!.userId);
    const ascii = record.filename.replace(/[^\x20-\x7e]/g, '_');
    return reply
      .header('content-type', record.contentType)
      .header('content-length', bytes.length)
      .header('content-disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(record.filename)}`)
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'private, no-store')
      .header('x-checksum-sha256', record.sha256)
      .send(bytes);
  });
}
