import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { ObjectStorage } from './storage';

export interface S3Settings {
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** MinIO and most S3-compatible stores want path-style URLs (http://host/bucket/key). */
  forcePathStyle: boolean;
  /** Prefix of every key in the bucket. */
  prefix: string;
}

/** S3 or an S3-compatible store (MinIO, Ceph, R2) through @aws-sdk/client-s3. */
export function s3Storage(s: S3Settings): ObjectStorage & { client: S3Client } {
  const client = new S3Client({
    region: s.region,
    ...(s.endpoint ? { endpoint: s.endpoint } : {}),
    forcePathStyle: s.forcePathStyle,
    ...(s.accessKeyId && s.secretAccessKey ? { credentials: { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey } } : {}),
  });
  const keyOf = (key: string): string => `${s.prefix}${key}`;
  return {
    backend: 's3',
    client,
    async put(key, bytes, contentType) {
      await client.send(
        new PutObjectCommand({ Bucket: s.bucket, Key: keyOf(key), Body: bytes, ContentType: contentType, ContentLength: bytes.length }),
      );
    },
    async get(key) {
      try {
        const r = await client.send(new GetObjectCommand({ Bucket: s.bucket, Key: keyOf(key) }));
        if (!r.Body) return undefined;
        return Buffer.from(await r.Body.transformToByteArray());
      } catch (err) {
        if (err instanceof NoSuchKey || (err as { name?: string }).name === 'NoSuchKey') return undefined;
        throw err;
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket: s.bucket, Key: keyOf(key) }));
    },
  };
}
