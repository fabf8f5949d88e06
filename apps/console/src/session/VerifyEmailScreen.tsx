import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { notificationsEndpoints } from '@corridor/contracts/notifications';
import { call } from '../api/client';
import { endpoint } from '../api/endpoint';
import { isApiError } from '../api/errors';
import { explainError } from '../api/messages';
import { PublicCard } from './PublicCard';

const verifyEmail = endpoint(notificationsEndpoints, 'notificationSettings.verifyEmail');

type Outcome = { state: 'checking' } | { state: 'done'; email: string } | { state: 'failed'; message: string };

/**
 * What the link mailed to a new notification address opens (/verify-email?token=…): it sends the
 * token once and says whether the address is now in use. Public, as the sign-in page: the link may
 * be opened on a phone where its user is not signed in, and the token is the proof.
 */
export default function VerifyEmailScreen() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token');
  const [outcome, setOutcome] = useState<Outcome>({ state: 'checking' });
  const sent = useRef(false);

  useEffect(() => {
    // once, even when React runs effects twice in development: a token verifies only once
    if (!token || sent.current) return;
    sent.current = true;
    call(verifyEmail, { body: { token } })
      .then((r) => setOutcome({ state: 'done', email: r.email }))
      .catch((err: unknown) =>
        setOutcome({
          state: 'failed',
          message: isApiError(err) && err.status === 400 ? t('verifyEmail.failed') : explainError(t, err).summary,
        }),
      );
  }, [token, t]);

  return (
    <PublicCard>
      <h2>{t('verifyEmail.title')}</h2>
      {!token ? (
        <p role="alert" className="form-error">
          {t('verifyEmail.noToken')}
        </p>
      ) : outcome.state === 'checking' ? (
        <p role="status" className="muted">
          {t('verifyEmail.checking')}
        </p>
      ) : outcome.state === 'done' ? (
        <p role="status" className="form-ok">
          {t('verifyEmail.done', { email: outcome.email })}
        </p>
      ) : (
        <p role="alert" className="form-error">
          {outcome.message}
        </p>
      )}
      <p>
        <Link to="/account/notifications">{t('verifyEmail.toSettings')}</Link>
      </p>
    </PublicCard>
  );
}
