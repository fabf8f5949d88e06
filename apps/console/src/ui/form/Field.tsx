import './form.css';
import { useId, type ReactNode } from 'react';

/** What a control needs to be tied to its label, hint and error. */
export interface FieldA11y {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid'?: true;
  'aria-required'?: true;
}

export interface FieldFrame {
  label: ReactNode;
  hint?: ReactNode;
  /** The problem, a sentence (zod's through the form's resolver, or the server's). */
  error?: string;
  required?: boolean;
  className?: string;
}

/** The ids of a field's hint and error, and the attributes its control carries. */
export function useFieldIds(frame: Pick<FieldFrame, 'hint' | 'error' | 'required'>): { a11y: FieldA11y; hintId: string; errorId: string } {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const described = [frame.hint ? hintId : null, frame.error ? errorId : null].filter(Boolean).join(' ');
  return {
    hintId,
    errorId,
    a11y: {
      id,
      ...(described ? { 'aria-describedby': described } : {}),
      ...(frame.error ? { 'aria-invalid': true as const } : {}),
      ...(frame.required ? { 'aria-required': true as const } : {}),
    },
  };
}

export function FieldNotes({ hint, error, hintId, errorId }: { hint?: ReactNode; error?: string; hintId: string; errorId: string }) {
  return (
    <>
      {hint && (
        <small className="muted field-hint" id={hintId}>
          {hint}
        </small>
      )}
      {error && (
        <small className="field-error" id={errorId}>
          {error}
        </small>
      )}
    </>
  );
}

/**
 * One form field: its label, the control (given the attributes that tie it to the label, hint and
 * error: id, aria-describedby, aria-invalid, aria-required), the hint under it and the error under that.
 */
export function FormField({
  label,
  hint,
  error,
  required,
  className,
  children,
}: FieldFrame & { children: (a11y: FieldA11y) => ReactNode }) {
  const { a11y, hintId, errorId } = useFieldIds({ hint, error, required });
  return (
    <div className={`field ${className ?? ''}`}>
      <label htmlFor={a11y.id}>{label}</label>
      {children(a11y)}
      <FieldNotes hint={hint} error={error} hintId={hintId} errorId={errorId} />
    </div>
  );
}

/**
 * A group of controls with one legend (checkboxes, radio buttons): the hint and error describe the
 * group, and each control gets aria-invalid.
 */
export function FieldGroup({
  label,
  hint,
  error,
  required,
  className,
  children,
}: FieldFrame & { children: (a11y: Omit<FieldA11y, 'id' | 'aria-describedby'>) => ReactNode }) {
  const { a11y, hintId, errorId } = useFieldIds({ hint, error, required });
  return (
    <fieldset className={`field field-group ${className ?? ''}`} aria-describedby={a11y['aria-describedby']}>
      <legend>{label}</legend>
      {children({ ...(error ? { 'aria-invalid': true as const } : {}) })}
      <FieldNotes hint={hint} error={error} hintId={hintId} errorId={errorId} />
    </fieldset>
  );
}
