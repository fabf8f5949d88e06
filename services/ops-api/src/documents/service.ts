/**
 * The shared document store of ops-api. Every module that keeps a file (uploads, IDFs, bills of
 * lading, generated certificates, invoices and receipts) stores it here with `store(...)`, reads it
 * back with `get`/`read`, and hands out downloads only as expiring signed links (`signedLink`).
 * Bytes go to object storage (local disk or S3-compatible); metadata, checksum and scan result to
 * ops.documents; links to shipments, cargo, … to ops.document_links.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { DocumentKind, DocumentOwnerType, DocumentRecord, DocumentWithLink, SignedLink } from '@corridor/contracts';
import { AppError, notFound, unavailable, type Identity, type InternalKeys, type Logger, type Orm } from '@corridor/platform';
import type { DocumentRow } from '../db/schema';
import { sniffContentType } from './content-sniff';
import type { DocumentFilter, DocumentsRepository } from './repository';
import { signedLinks } from './signed-link';
import type { ObjectStorage } from './storage';
import type { VirusScanner } from './virus-scan';

export interface StoreDocumentInput {
  companyId: number;
  kind: DocumentKind;
  filename: string;
  /** The declared type; the bytes are sniffed and must agree (415 otherwise). */
  contentType: string;
  bytes: Buffer;
  ownerType?: DocumentOwnerType | null;
  ownerId?: string | number | null;
  uploadedBy: Identity;
}

export interface DocumentsDeps {
  repo: DocumentsRepository;
  storage: ObjectStorage;
  scanner: VirusScanner;
  /** INTERNAL_TOKEN_SECRET (and _PREVIOUS during a rotation): signs download links. */
  linkSecret: InternalKeys;
  maxBytes: number;
  companyExists(id: number): Promise<boolean>;
  logger: Logger;
  now?: () => Date;
}

/** Download links handed out with a document (GET /documents/{id}, upload answers) live this long. */
const DEFAULT_LINK_TTL_SECONDS = 900;

function toDocumentRecord(r: DocumentRow): DocumentRecord {
  return {
    id: r.id,
    companyId: r.companyId,
    kind: r.kind as DocumentKind,
    filename: r.filename,
    contentType: r.contentType,
    sizeBytes: r.sizeBytes,
    sha256: r.sha256,
    scanStatus: r.scanStatus,
    ownerType: r.ownerType as DocumentOwnerType | null,
    ownerId: r.ownerId,
    uploadedBy: { userId: r.uploadedByUserId, email: r.uploadedByEmail },
    createdAt: r.createdAt.toISOString(),
  };
}

/** Control characters and quotes: a file name keeps none (the pattern alone on its line, under its directive, whatever the layout). */
// eslint-disable-next-line no-control-regex -- control characters are what it matches
const UNSAFE_IN_FILENAME = /[\u0000-\u001f\u007f"]/g;

const cleanFilename = (name: string): string => {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base.replace(UNSAFE_IN_FILENAME, '').trim().slice(0, 200);
  return cleaned || 'document';
};

export function documentsService(deps: DocumentsDeps) {
  const { repo, storage, scanner, logger } = deps;
  const links = signedLinks(deps.linkSecret, deps.now);

  const visible = (row: DocumentRow | undefined, scope: number | undefined): row is DocumentRow =>
    !!row && (scope === undefined || row.companyId === scope);

  async function bytesOf(row: DocumentRow): Promise<Buffer> {
    let bytes: Buffer | undefined;
    try {
      bytes = await storage.get(row.storageKey);
    } catch (err) {
      throw unavailable('Document storage', err);
    }
    if (!bytes) throw new AppError('INTERNAL', `Document ${row.id}: its bytes are missing from storage`);
    if (createHash('sha256').update(bytes).digest('hex') !== row.sha256) {
      logger.error({ documentId: row.id }, 'document checksum mismatch');
      throw new AppError('INTERNAL', `Document ${row.id} failed its checksum`);
    }
    return bytes;
  }

  const service = {
    maxBytes: deps.maxBytes,

    /** Stores a document: size limit, content sniffing, checksum, virus scan, then storage and a row. */
    async store(input: StoreDocumentInput): Promise<DocumentRecord> {
      if (input.bytes.length === 0)
        throw new AppError('VALIDATION_FAILED', 'file: the file is empty', [{ in: 'body', path: 'file', message: 'empty file' }]);
      if (input.bytes.length > deps.maxBytes)
        throw new AppError('PAYLOAD_TOO_LARGE', `The file exceeds ${deps.maxBytes} bytes`, { limit: deps.maxBytes });
      if (!(await deps.companyExists(input.companyId))) {
        throw new AppError('VALIDATION_FAILED', `companyId: no company ${input.companyId}`, [
          { in: 'body', path: 'companyId', message: 'unknown company' },
        ]);
      }
      const contentType = await sniffContentType(input.bytes, input.contentType);
      let scan;
      try {
        scan = await scanner.scan(input.bytes, input.filename);
      } catch (err) {
        throw unavailable('The virus scanner', err);
      }
      if (scan.status === 'infected') {
        logger.warn({ companyId: input.companyId, filename: input.filename, detail: scan.detail }, 'upload refused by the virus scanner');
        throw new AppError('UNPROCESSABLE', 'The file was refused by the virus scan', { reason: scan.detail });
      }
      const id = randomUUID();
      const key = `${input.companyId}/${id}`;
      try {
        await storage.put(key, input.bytes, contentType);
      } catch (err) {
        throw unavailable('Document storage', err);
      }
      try {
        const row = await repo.insert({
          id,
          companyId: input.companyId,
          kind: input.kind,
          filename: cleanFilename(input.filename),
          contentType,
          sizeBytes: input.bytes.length,
          sha256: createHash('sha256').update(input.bytes).digest('hex'),
          storageBackend: storage.backend,
          storageKey: key,
          scanStatus: scan.status,
          scanDetail: scan.detail ?? null,
          ownerType: input.ownerType ?? null,
          ownerId: input.ownerId == null ? null : String(input.ownerId),
          uploadedByUserId: input.uploadedBy.userId,
          uploadedByEmail: input.uploadedBy.email,
        });
        return toDocumentRecord(row);
      } catch (err) {
        await storage.delete(key).catch(() => undefined);
        throw err;
      }
    },

    /** The document if the scope (a company id, or undefined for staff) may see it; else 404. */
    async get(id: string, scope: number | undefined): Promise<DocumentRecord> {
      const row = await repo.get(id);
      if (!visible(row, scope)) throw notFound('Document', id);
      return toDocumentRecord(row);
    },

    /** Metadata and bytes (checksum verified), for modules that process a stored file. */
    async read(id: string, scope: number | undefined): Promise<{ record: DocumentRecord; bytes: Buffer }> {
      const row = await repo.get(id);
      if (!visible(row, scope)) throw notFound('Document', id);
      return { record: toDocumentRecord(row), bytes: await bytesOf(row) };
    },

    /** An expiring download link for one user (no database access: check visibility with `get` first). */
    signedLink(id: string, userId: number, ttlSeconds: number = DEFAULT_LINK_TTL_SECONDS): SignedLink {
      return links.create(id, userId, ttlSeconds);
    },

    withLink(record: DocumentRecord, userId: number, ttlSeconds: number = DEFAULT_LINK_TTL_SECONDS): DocumentWithLink {
      return { ...record, download: links.create(record.id, userId, ttlSeconds) };
    },

    /** Serves a signed link to the user it was issued to: 403 when altered, expired or someone else's, 404 when the document is gone. */
    async download(
      id: string,
      link: { user: number; expires: number; signature: string },
      callerId: number,
    ): Promise<{ record: DocumentRecord; bytes: Buffer }> {
      const verdict = links.check(id, link, callerId);
      if (verdict === 'bad_signature') throw new AppError('FORBIDDEN', 'The download link is not valid');
      if (verdict === 'other_user') throw new AppError('FORBIDDEN', 'The download link was issued to another user; ask for your own');
      if (verdict === 'expired')
        throw new AppError('FORBIDDEN', 'The download link has expired; ask for a new one', {
          expiredAt: new Date(link.expires * 1000).toISOString(),
        });
      const row = await repo.get(id);
      if (!row) throw notFound('Document', id);
      return { record: toDocumentRecord(row), bytes: await bytesOf(row) };
    },

    async list(f: DocumentFilter): Promise<{ items: DocumentRecord[]; total: number; limit: number; offset: number }> {
      const { rows, total } = await repo.list(f);
      return { items: rows.map(toDocumentRecord), total, limit: f.limit, offset: f.offset };
    },

    /** Links a visible document to an entity inside the caller's transaction; false when already linked. */
    async attach(tx: Orm, documentId: string, entityType: string, entityId: string | number, by: Identity): Promise<boolean> {
      return repo.link(tx, documentId, entityType, String(entityId), by.userId);
    },

    async linkedTo(entityType: string, entityId: string | number): Promise<DocumentRecord[]> {
      return (await repo.linkedTo(entityType, String(entityId))).map(toDocumentRecord);
    },
  };
  return service;
}
export type DocumentsService = ReturnType<typeof documentsService>;
