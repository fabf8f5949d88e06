import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useExplainError } from '../api/messages';

/** A busy indicator that screen readers announce. */
export function Loading({ label, page }: { label?: string; page?: boolean }) {
  const { t } = useTranslation();
  return (
    <div className={page ? 'state state-page' : 'state'} role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>{label ?? t('common.loading')}</span>
    </div>
  );
}

/** Nothing to show yet: says so and what to do next. */
export function Empty({ title, hint, action }: { title: string; hint?: string; action?: ReactNode }) {
  return (
    <div className="state state-empty" role="status">
      <strong>{title}</strong>
      {hint && <p>{hint}</p>}
      {action}
    </div>
  );
}

/** A failed request: what went wrong, and a retry where asking again may help. */
export function ErrorState({ error, retry, page, title }: { error: unknown; retry?: () => void; page?: boolean; title?: string }) {
  const { t } = useTranslation();
  const message = useExplainError()(error).summary || t('errors.unknown');
  return (
    <div className={page ? 'state state-error state-page' : 'state state-error'} role="alert">
      <strong>{title ?? t('common.errorTitle')}</strong>
      <p>{message}</p>
      {retry && (
        <button type="button" className="btn" onClick={retry}>
          {t('common.retry')}
        </button>
      )}
    </div>
  );
}
