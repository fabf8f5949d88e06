import type { FastifyRequest } from 'fastify';
import { DocumentRef, type DocumentOwnerType, type DocumentRecord } from '@corridor/contracts';
import { AppError, type Identity } from '@corridor/platform';
import { storeUpload } from './routes';
import type { DocumentsService } from './service';

/**
 * The document an attach endpoint names: JSON { documentId } (an upload of the same company), or a
 * multipart upload stored on the spot for the owner's company.
 */
export async function documentToAttach(
  req: FastifyRequest,
  svc: DocumentsService,
  by: Identity,
  owner: { companyId: number; ownerType: DocumentOwnerType; ownerId: number },
): Promise<string> {
  if (req.isMultipart()) {
    const stored: DocumentRecord = await storeUpload(svc, req, by, owner);
    return stored.id;
  }
  const r = DocumentRef.safeParse(req.body ?? {});
  if (!r.success) {
    const details = r.error.issues.map((i) => ({ in: 'body', path: i.path.join('.'), message: i.message }));
    throw new AppError('VALIDATION_FAILED', `body.${details[0]!.path || '(body)'}: ${details[0]!.message}`, details);
  }
  return r.data.documentId;
}
