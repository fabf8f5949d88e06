import { cloneElement, isValidElement, useId, type ReactNode } from 'react';
import { useExplainError, type FieldLabels } from '../api/messages';

/**
 * A refusal's problems by field path ('name', 'attributes.speedLimit'), worded for people in their
 * language (api/messages.ts), to show under each field; {} when the refusal is not about fields.
 */
export function useFieldErrors(error: unknown): Record<string, string> {
  const explain = useExplainError();
  const out: Record<string, string> = {};
  if (!error) return out;
  for (const p of explain(error).problems) out[p.path] ??= p.problem;
  return out;
}

/**
 * A labelled control (the label wraps it) with its hint and error under it, tied to the control by
 * aria-describedby and aria-invalid, so a screen reader reads them with the field.
 */
export function Field({
  label,
  name,
  error,
  hint,
  children,
}: {
  label: string;
  name: string;
  error?: string;
  hint?: string;
  children: ReactNode;
}) {
  const id = useId();
  const hintId = `${id}-${name}-hint`;
  const errorId = `${id}-${name}-error`;
  const described = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ');
  const control = isValidElement<Record<string, unknown>>(children)
    ? cloneElement(children, { ...(described ? { 'aria-describedby': described } : {}), ...(error ? { 'aria-invalid': true } : {}) })
    : children;
  return (
    <label className="field">
      <span>{label}</span>
      {control}
      {hint && (
        <small className="muted" id={hintId}>
          {hint}
        </small>
      )}
      {error && (
        <small className="field-error" id={errorId}>
          {error}
        </small>
      )}
    </label>
  );
}

/**
 * A request's refusal as one sentence for people (api/messages.ts), the fields named as `labels`
 * names them. With `labels`, the problems of those fields are left to the fields (useFieldErrors),
 * so each is said once; what no field shows is said here.
 */
export function FormError({ error, labels }: { error: unknown; labels?: FieldLabels }) {
  const explain = useExplainError();
  if (!error) return null;
  const explained = explain(error, labels);
  let message = explained.summary;
  if (labels && explained.problems.length) {
    const rest = explained.problems.filter((p) => !Object.keys(labels).some((f) => p.path === f || p.path.startsWith(`${f}.`)));
    message = rest.map((p) => `${p.label}: ${p.problem}`).join(' ');
  }
  if (!message) return null;
  return (
    <p role="alert" className="form-error">
      {message}
    </p>
  );
}

/** <input type="datetime-local"> value ↔ ISO 8601 with offset, in the browser's time zone. */
export const localInput = (iso: string | null | undefined): string => {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};
export const fromLocalInput = (value: string): string | null => (value ? new Date(value).toISOString() : null);
