import { join } from 'node:path';
import { localStorage, type ObjectStorage } from './storage';
import { s3Storage } from './s3-storage';
import { commandScanner, noScanner, type VirusScanner } from './virus-scan';

/** How ops-api keeps documents; `documentsSettingsFrom(config)` builds it from the environment. */
export interface DocumentsSettings {
  storage: ObjectStorage;
  scanner: VirusScanner;
  maxBytes: number;
}

const DEFAULT_MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;

export interface DocumentsEnv {
  DATA_DIR: string;
  DOCUMENTS_MAX_BYTES: number;
  DOCUMENTS_SCAN_COMMAND?: string;
  S3_BUCKET?: string;
  S3_ENDPOINT?: string;
  S3_REGION: string;
  S3_ACCESS_KEY_ID?: string;
  S3_SECRET_ACCESS_KEY?: string;
  S3_FORCE_PATH_STYLE: boolean;
  S3_PREFIX: string;
}

/** Local disk under DATA_DIR/documents unless S3_BUCKET is set; a scanner only when DOCUMENTS_SCAN_COMMAND is. */
export function documentsSettingsFrom(env: DocumentsEnv): DocumentsSettings {
  const storage = env.S3_BUCKET
    ? s3Storage({
        bucket: env.S3_BUCKET,
        endpoint: env.S3_ENDPOINT,
        region: env.S3_REGION,
        accessKeyId: env.S3_ACCESS_KEY_ID,
        secretAccessKey: env.S3_SECRET_ACCESS_KEY,
        forcePathStyle: env.S3_FORCE_PATH_STYLE,
        prefix: env.S3_PREFIX,
      })
    : localStorage(join(env.DATA_DIR, 'documents'));
  const scanner = env.DOCUMENTS_SCAN_COMMAND ? commandScanner(env.DOCUMENTS_SCAN_COMMAND.trim().split(/\s+/)) : noScanner;
  return { storage, scanner, maxBytes: env.DOCUMENTS_MAX_BYTES };
}

/** Without configuration (tests, the one-process stack): local disk under .data/documents, no scanner. */
export const defaultDocumentsSettings = (dataDir = '.data'): DocumentsSettings => ({
  storage: localStorage(join(dataDir, 'documents')),
  scanner: noScanner,
  maxBytes: DEFAULT_MAX_DOCUMENT_BYTES,
});
