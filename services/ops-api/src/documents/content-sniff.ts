import { fileTypeFromBuffer } from 'file-type';
import { DocumentContentType } from '@corridor/contracts';
import { AppError } from '@corridor/platform';

const textTypes = new Set<string>(['application/json', 'text/csv', 'text/plain']);
const aliases: Record<string, string> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'application/x-pdf': 'application/pdf',
  'application/csv': 'text/csv',
  'text/json': 'application/json',
};
const generic = new Set(['application/octet-stream', 'binary/octet-stream', '']);

const isUtf8Text = (bytes: Buffer): boolean => {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
};

/**
 * The content type a document is stored with: the bytes are sniffed (magic numbers through
 * file-type) and must agree with what the client declared. Text formats (JSON, CSV, plain text)
 * have no magic number: they must be valid UTF-8 with no NUL byte. A mismatch answers 415.
 */
export async function sniffContentType(bytes: Buffer, declared: string | undefined): Promise<string> {
  const claimed = (declared ?? '').split(';')[0]!.trim().toLowerCase();
  const normalized = aliases[claimed] ?? claimed;
  const detected = await fileTypeFromBuffer(bytes);
  const allowed = DocumentContentType.options as readonly string[];
  if (detected) {
    if (!allowed.includes(detected.mime)) {
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', `Files of type ${detected.mime} are not accepted`, {
        detected: detected.mime,
        accepted: allowed,
      });
    }
    if (!generic.has(normalized) && normalized !== detected.mime) {
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', `The file was declared as ${claimed} but its content is ${detected.mime}`, {
        declared: claimed,
        detected: detected.mime,
      });
    }
    return detected.mime;
  }
  if (textTypes.has(normalized)) {
    if (!isUtf8Text(bytes)) {
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', `The file was declared as ${claimed} but is not UTF-8 text`, {
        declared: claimed,
        detected: 'binary',
      });
    }
    if (normalized === 'application/json') {
      try {
        JSON.parse(bytes.toString('utf8'));
      } catch {
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'The file was declared as application/json but is not valid JSON', {
          declared: claimed,
          detected: 'text',
        });
      }
    }
    return normalized;
  }
  throw new AppError(
    'UNSUPPORTED_MEDIA_TYPE',
    allowed.includes(normalized)
      ? `The file was declared as ${claimed} but its content does not match`
      : `Content type ${claimed || '(none)'} is not accepted`,
    { declared: claimed, accepted: allowed },
  );
}
