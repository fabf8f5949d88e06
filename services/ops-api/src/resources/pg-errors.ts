import { AppError } from '@corridor/platform';

/** The violated unique constraint's name, when err is a PostgreSQL unique violation (23505). */
function uniqueViolation(err: unknown): string | undefined {
  const e = err as {
    code?: string;
    constraint?: string;
    message?: string;
    cause?: { code?: string; constraint?: string; message?: string };
  };
  const hit = e?.code === '23505' ? e : e?.cause?.code === '23505' ? e.cause : undefined;
  if (!hit) return undefined;
  return hit.constraint ?? /constraint "([^"]+)"/.exec(hit.message ?? '')?.[1] ?? '';
}

/** Runs a write, turning a unique violation into 409 CONFLICT naming the field the constraint guards. */
export async function conflictOnUnique<T>(
  write: () => Promise<T>,
  fields: Record<string, string>,
  message: (field: string) => string,
): Promise<T> {
  try {
    return await write();
  } catch (err) {
    const constraint = uniqueViolation(err);
    if (constraint === undefined) throw err;
    const field = fields[constraint] ?? Object.values(fields)[0] ?? 'id';
    throw new AppError('CONFLICT', message(field), { field });
  }
}

/**
 * A 400 naming one field, in the shape schema validation answers. `reason`: what a client words
 * for its user instead of the English message (a code and its parameters, e.g.
 * { reason: 'commandUnsupported', protocol: 'gt06', type: 'engineResume' }).
 */
export function invalidField(field: string, message: string, reason?: { reason: string } & Record<string, string | number>): AppError {
  return new AppError('VALIDATION_FAILED', `body.${field}: ${message}`, [{ in: 'body', path: field, message, ...reason }]);
}
