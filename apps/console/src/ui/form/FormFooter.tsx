import type { ReactNode } from 'react';
import { useFormState } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FormAlert } from './FormAlert';

export interface FormFooterProps {
  /** What the fields do not show of a refusal (useServerProblems), said once for the whole form. */
  problem: string | null | undefined;
  /** The sentence that the form's request went through. */
  done?: string | null | false;
  /** The submit button's words. */
  submitLabel: string;
  /** Its words while the request runs (default: the same words). */
  busyLabel?: string;
  /** Whether the request runs: by default the form's own submit (react-hook-form); a mutation's isPending where the form sends through one. */
  busy?: boolean;
  /** False while the form cannot be sent yet (a shape not drawn far enough). */
  ready?: boolean;
  /** The submit button's weight: the form's main action (default), a destructive one, or a plain button. */
  tone?: 'primary' | 'danger' | 'plain';
  /** A Cancel button before the submit… */
  onCancel?: () => void;
  /** …or a Cancel link back to where the form came from. */
  cancelTo?: string;
  /** Further buttons, before Cancel (Undo on a drawing, another way to prove who one is). */
  actions?: ReactNode;
  submitTestId?: string;
}

const TONE = { primary: 'btn btn-primary', danger: 'btn btn-danger', plain: 'btn' } as const;

/**
 * The end of a form (inside its FormProvider): the refusal said once, or that it went through; then
 * the form's buttons, the submit last, off while the request runs so it is sent once.
 */
export function FormFooter({
  problem,
  done,
  submitLabel,
  busyLabel,
  busy,
  ready = true,
  tone = 'primary',
  onCancel,
  cancelTo,
  actions,
  submitTestId,
}: FormFooterProps) {
  const { t } = useTranslation();
  const { isSubmitting } = useFormState();
  const working = busy ?? isSubmitting;
  return (
    <>
      <FormAlert message={problem} done={done} />
      <div className="form-actions">
        {actions}
        {cancelTo !== undefined ? (
          <Link className="btn" to={cancelTo}>
            {t('common.cancel')}
          </Link>
        ) : (
          onCancel && (
            <button type="button" className="btn" onClick={onCancel}>
              {t('common.cancel')}
            </button>
          )
        )}
        <button type="submit" className={TONE[tone]} disabled={working || !ready} data-testid={submitTestId}>
          {working && busyLabel ? busyLabel : submitLabel}
        </button>
      </div>
    </>
  );
}
