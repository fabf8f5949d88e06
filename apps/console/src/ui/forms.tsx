import { useExplainError, type FieldLabels } from '../api/messages';

/**
 * A request's refusal as one sentence for people (api/messages.ts), the fields named as `labels`
 * names them. With `labels`, the problems of those fields are left to the fields (ui/form, useServerProblems),
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
