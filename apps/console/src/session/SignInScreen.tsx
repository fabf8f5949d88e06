import { useState } from 'react';
import { FormProvider } from 'react-hook-form';
import { LoginInput } from '@corridor/contracts/session';
import { Navigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { call } from '../api/client';
import { isApiError } from '../api/errors';
import { useExplainError } from '../api/messages';
import { TextField } from '../ui/form/fields';
import { FormAlert } from '../ui/form/FormAlert';
import { applyServerErrors } from '../ui/form/server-errors';
import { useZodForm } from '../ui/form/useZodForm';
import { PublicCard } from './PublicCard';
import { setSessionHint } from './session-hint';
import { sessionCreate, useServer, useSession, useSetSession } from './useSession';

/** The sign-in with the second factor's code required. */
const WithCode = LoginInput.required({ code: true });

/** Password sign-in, the TOTP second factor when the account has one, and OpenID when the server offers it. */
export default function SignInScreen() {
  const { t } = useTranslation();
  const explain = useExplainError();
  const { user } = useSession();
  const server = useServer();
  const setSession = useSetSession();
  const [params] = useSearchParams();
  const [needCode, setNeedCode] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  // the contract's LoginInput; once the server asks for the second factor, its code is required too
  const form = useZodForm(needCode ? WithCode : LoginInput, { defaultValues: { email: '', password: '', code: undefined } });
  const next = safeNext(params.get('next'));
  const openIdFailed = params.get('error');

  const submit = form.handleSubmit(async (body) => {
    setFailure(null);
    try {
      const signedIn = await call(sessionCreate, { body: needCode ? body : { email: body.email, password: body.password } });
      setSession(signedIn);
    } catch (err) {
      if (isApiError(err) && err.status === 401 && err.authenticate === 'TOTP' && !needCode) {
        setNeedCode(true);
      } else if (isApiError(err) && err.status === 429) {
        setFailure(t('signIn.locked'));
      } else if (!needCode || applyServerErrors(err, form.setError, ['code'])) {
        // worded by the refusal's reason (a wrong or used code is said under the code field, focused)
        setFailure(explain(err).summary);
      }
    }
  });

  if (user) return <Navigate to={next} replace />;

  const openIdOnly = server.data?.openIdForce === true;
  return (
    <PublicCard>
      <p className="muted">{t('signIn.tagline')}</p>
      {openIdFailed && (
        <p role="alert" className="form-error">
          {t('signIn.openIdFailed')}
        </p>
      )}
      {!openIdOnly && (
        <FormProvider {...form}>
          <form onSubmit={(e) => void submit(e)} aria-label={t('signIn.title')} noValidate>
            {!needCode ? (
              <>
                <TextField name="email" label={t('signIn.email')} type="text" autoComplete="username" required maxLength={254} autoFocus />
                <TextField
                  name="password"
                  label={t('signIn.password')}
                  type="password"
                  autoComplete="current-password"
                  required
                  maxLength={256}
                />
              </>
            ) : (
              <TextField
                name="code"
                label={t('signIn.code')}
                hint={t('signIn.codeHint')}
                inputMode="numeric"
                autoComplete="one-time-code"
                required
                maxLength={6}
                autoFocus
              />
            )}
            <FormAlert message={failure} />
            <button type="submit" className="btn btn-primary btn-block" disabled={form.formState.isSubmitting}>
              {form.formState.isSubmitting ? t('signIn.signingIn') : needCode ? t('signIn.verify') : t('signIn.submit')}
            </button>
          </form>
        </FormProvider>
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
