import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { isApiError } from '../../api/errors';

/**
 * The API's 400 details ({ path, message }[]) put back on the form's own fields, so the person
 * reads the server's refusal where they typed. Returns whether any detail found no field (the form
 * then shows the error as a whole).
 */
export function applyServerErrors<F extends FieldValues>(error: unknown, setError: UseFormSetError<F>, fields: readonly string[]): boolean {
  if (!isApiError(error) || !Array.isArray(error.details)) return Boolean(error);
  let unplaced = false;
  for (const d of error.details as { path?: unknown; message?: unknown }[]) {
    const path = typeof d?.path === 'string' ? d.path.replace(/^(body|querystring)\.?/, '') : '';
    const field = fields.find((f) => path === f || path.startsWith(`${f}.`));
    if (field && typeof d.message === 'string') setError(field as Path<F>, { type: 'server', message: d.message });
    else unplaced = true;
  }
  return unplaced;
}
