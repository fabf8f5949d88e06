import { useEffect, useMemo } from 'react';
import type { FieldValues, Path, UseFormReturn, UseFormSetError } from 'react-hook-form';
import { explainError, useExplainError, type FieldLabels } from '../../api/messages';
import { i18n } from '../../i18n/i18n';

/** The form field a problem's path belongs to: the path itself or its nearest parent among the form's fields. */
function fieldOf(path: string, fields: readonly string[]): string | undefined {
  const parts = path.split('.');
  for (let i = parts.length; i > 0; i--) {
    const candidate = parts.slice(0, i).join('.');
    if (fields.includes(candidate)) return candidate;
  }
  return undefined;
}

/**
 * A request's refusal on a react-hook-form form, said once: each problem of a field the form shows
 * goes under that field (setError, worded by api/messages.ts, not the server's English), and what
 * no field shows comes back as one sentence for the form's alert (null when there is none).
 * `labels`: the form's fields by path, as their labels read.
 */
export function useServerProblems<F extends FieldValues>(
  form: Pick<UseFormReturn<F>, 'setError'>,
  error: unknown,
  labels: FieldLabels,
  /** API paths that are another form field (the form's 'timezone' is the API's 'attributes.timezone'). */
  aliases: Readonly<Record<string, string>> = {},
  /** Words for API paths the form has no field of (a geofence's 'radius' is its shape, drawn on the map): said in the form's alert. */
  named: FieldLabels = {},
): string | null {
  const explain = useExplainError();
  const explained = useMemo(() => {
    const e = explain(error, {
      ...named,
      ...labels,
      ...Object.fromEntries(Object.entries(aliases).map(([api, field]) => [api, labels[field] ?? field])),
    });
    return { ...e, problems: e.problems.map((p) => ({ ...p, path: aliasOf(p.path, aliases) })) };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- labels and aliases are the form's, read with each new error
  }, [error, explain]);
  const fields = Object.keys(labels);
  const { setError } = form;
  useEffect(() => {
    for (const p of explained.problems) {
      const field = fieldOf(p.path, fields);
      if (field) setError(field as Path<F>, { type: 'server', message: p.problem }, { shouldFocus: true });
    }
    // placed once per refusal: a new error object places its problems again
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [error]);
  if (!error) return null;
  if (!explained.problems.length) return explained.summary;
  const rest = explained.problems.filter((p) => !fieldOf(p.path, fields));
  return rest.length ? rest.map((p) => `${p.label}: ${p.problem}`).join(' ') : null;
}

/** An API path as the form's field: itself, or the field an alias names for it (or for a parent of it). */
function aliasOf(path: string, aliases: Readonly<Record<string, string>>): string {
  for (const [api, field] of Object.entries(aliases)) if (path === api || path.startsWith(`${api}.`)) return field + path.slice(api.length);
  return path;
}

/**
 * A refusal's field problems put on a react-hook-form form (setError), worded by api/messages.ts in
 * the console's language, never the server's English. Returns whether anything of the refusal was
 * left unplaced (the form then says it whole, with FormError).
 */
export function applyServerErrors<F extends FieldValues>(error: unknown, setError: UseFormSetError<F>, fields: readonly string[]): boolean {
  if (!error) return false;
  const explained = explainError(i18n.t, error);
  if (!explained.problems.length) return true;
  let unplaced = false;
  for (const p of explained.problems) {
    const field = fieldOf(p.path, fields);
    if (field) setError(field as Path<F>, { type: 'server', message: p.problem });
    else unplaced = true;
  }
  return unplaced;
}
