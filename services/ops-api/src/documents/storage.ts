import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { randomUUID } from 'node:crypto';

/** Where document bytes live. Keys are `<companyId>/<documentId>`; metadata stays in PostgreSQL. */
export interface ObjectStorage {
  readonly backend: 'local' | 's3';
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The bytes, or undefined when the key holds nothing. */
  get(key: string): Promise<Buffer | undefined>;
  delete(key: string): Promise<void>;
}

const safeKey = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/;

/** Local disk under a root folder (DATA_DIR/documents by default); writes are atomic (temp + rename). */
export function localStorage(root: string): ObjectStorage {
  const base = resolve(root);
  const pathOf = (key: string): string => {
    if (!safeKey.test(key)) throw new Error(`invalid storage key ${key}`);
    const p = resolve(join(base, key));
    if (!p.startsWith(base + sep)) throw new Error(`storage key escapes the root: ${key}`);
    return p;
  };
  return {
    backend: 'local',
    async put(key, bytes) {
      const p = pathOf(key);
      await mkdir(dirname(p), { recursive: true });
      const tmp = `${p}.${randomUUID()}.tmp`;
      await writeFile(tmp, bytes);
      await rename(tmp, p);
    },
    async get(key) {
      try {
        return await readFile(pathOf(key));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw err;
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}
