import { useState, type FormEvent } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { call } from '../api/client';
import { isApiError } from '../api/errors';
import { useExplainError } from '../api/messages';
import { PublicCard } from './PublicCard';
import { setSessionHint } from './session-hint';
import { sessionCreate, useServer, useSession, useSetSession } from './useSession';

/** Password sign-in, the TOTP second factor when the account has one, and OpenID when the server offers it. */
export default function SignInScreen() {
  const { t } = useTranslation();
  const explain = useExplainError();
  const { user } = useSession();
  const server = useServer();
  const setSession = useSetSession();
  const [params] = useSearchParams();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [needCode, setNeedCode] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const next = safeNext(params.get('next'));
  const openIdFailed = params.get('error');

  if (user) return <Navigate to={next} replace />;

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setFailure(null);
    try {
      const signedIn = await call(sessionCreate, { body: { email, password, ...(needCode ? { code } : {}) } });
      setSession(signedIn);
    } catch (err) {
      if (isApiError(err) && err.status === 401 && err.authenticate === 'TOTP' && !needCode) {
        setNeedCode(true);
      } else if (isApiError(err) && err.status === 401) {
        setFailure(needCode ? t('signIn.wrongCode') : t('signIn.wrongPassword'));
      } else if (isApiError(err) && err.status === 429) {
        setFailure(t('signIn.locked'));
      } else {
        setFailure(explain(err).summary);
      }
    } finally {
      setBusy(false);
    }
  }

  const openIdOnly = server.data?.openIdForce === true;
  return (
    <PublicCard>
      <p className="muted">{t('signIn.tagline')}</p>
      {openIdFailed && <p role="alert" className="form-error">{t('signIn.openIdFailed')}</p>}
      {!openIdOnly && (
        <form onSubmit={submit} aria-label={t('signIn.title')}>
          {!needCode ? (
            <>
              <label className="field">
                <span>{t('signIn.email')}</span>
                <input type="text" name="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} autoFocus />
              </label>
              <label className="field">
                <span>{t('signIn.password')}</span>
                <input type="password" name="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
              </label>
            </>
          ) : (
            <label className="field">
              <span>{t('signIn.code')}</span>
              <input name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" maxLength={6} required value={code} onChange={(e) => setCode(e.target.value)} autoFocus />
              <small className="muted">{t('signIn.codeHint')}</small>
            </label>
          )}
          {failure && (
            <p role="alert" className="form-error">
              {failure}
            </p>
          )}
          <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
            {busy ? t('signIn.signingIn') : needCode ? t('signIn.verify') : t('signIn.submit')}
          </button>
        </form>
      )}
      {server.data?.openIdEnabled && (
        // the provider sends the browser back with a session the console did not see being made
        <a className="btn btn-block" href="/api/session/openid/auth" onClick={() => setSessionHint(true)}>
          {t('signIn.openId')}
        </a>
      )}
    </PublicCard>
  );
}

/** Only a path of this console, never another site. */
function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/';
}
