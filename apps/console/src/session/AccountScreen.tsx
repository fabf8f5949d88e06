import { useState } from 'react';
import { FormProvider } from 'react-hook-form';
import { z } from 'zod';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { TotpCode, TotpConfirm, usersEndpoints } from '@corridor/contracts/users';
import { endpoint } from '../api/endpoint';
import { useApiMutation } from '../api/hooks';
import { FormError } from '../ui/forms';
import { TextField } from '../ui/form/fields';
import { FormFooter } from '../ui/form/FormFooter';
import { useServerProblems } from '../ui/form/server-errors';
import { useZodForm } from '../ui/form/useZodForm';
import { PreferencesForm } from './PreferencesForm';
import { useSetSession } from './useSession';
import { useUser } from './useUser';

const generate = endpoint(usersEndpoints, 'users.totp.generate');
const confirm = endpoint(usersEndpoints, 'users.totp.confirm');
const disable = endpoint(usersEndpoints, 'users.totp.disable');

/** The secret in groups of four, as authenticator apps show it when typed in by hand. */
const grouped = (secret: string) => secret.replace(/(.{4})/g, '$1 ').trim();

/**
 * The signed-in user's account: two-step sign-in (TOTP) set up by the user: a new secret to add to
 * an authenticator app (by its otpauth link or typed in), confirmed with a first code; from then on
 * sign-in asks for a code. The user turns it off with a current code, or with the password when
 * the authenticator is lost; an administrator can also remove it (DELETE /users/{id}/totp).
 */
export default function AccountScreen() {
  const { t } = useTranslation();
  const user = useUser();
  const setSession = useSetSession();
  const start = useApiMutation(generate);
  const finish = useApiMutation(confirm, { onSuccess: (u) => setSession(u) });
  const [error, setError] = useState<unknown>(null);
  const form = useZodForm(TotpConfirm, { defaultValues: { code: '' } });
  const problem = useServerProblems(form, error, { code: t('signIn.code') });
  const secret = start.data;
  const link = secret
    ? `otpauth://totp/${encodeURIComponent(`Corridor:${user.email}`)}?secret=${secret}&issuer=Corridor&algorithm=SHA1&digits=6&period=30`
    : null;
  const submit = form.handleSubmit(async (body) => {
    setError(null);
    await finish.mutateAsync({ body }).catch(setError);
  });

  return (
    <div className="screen">
      <div className="screen-head">
        <h1>{t('account.title')}</h1>
      </div>
      <section className="card narrow" aria-labelledby="totp-head">
        <h2 id="totp-head">{t('account.totp')}</h2>
        {user.totpEnabled ? (
          <TotpOff />
        ) : !secret ? (
          <>
            <p className="muted">{t('account.totpOff')}</p>
            <FormError error={start.error} />
            <button type="button" className="btn btn-primary" disabled={start.isPending} onClick={() => start.mutate({})}>
              {t('account.totpStart')}
            </button>
          </>
        ) : (
          <FormProvider {...form}>
            <form onSubmit={(e) => void submit(e)} aria-label={t('account.totp')} noValidate>
              <p>{t('account.totpAdd')}</p>
              <p>
                <a href={link!}>{t('account.totpLink')}</a>
              </p>
              <p>
                {t('account.totpSecret')}{' '}
                <code className="mono" data-testid="totp-secret">
                  {grouped(secret)}
                </code>
              </p>
              <TextField name="code" label={t('signIn.code')} inputMode="numeric" autoComplete="one-time-code" maxLength={6} required />
              <FormFooter problem={problem} submitLabel={t('account.totpConfirm')} />
            </form>
          </FormProvider>
        )}
      </section>
      <section className="card narrow mt" aria-labelledby="prefs-head">
        <h2 id="prefs-head">{t('preferences.title')}</h2>
        <p className="muted">{t('preferences.hint')}</p>
        <PreferencesForm />
      </section>
      <section className="card narrow mt" aria-labelledby="notices-head">
        <h2 id="notices-head">{t('account.notices')}</h2>
        <p className="muted">{t('account.noticesHint')}</p>
        <Link to="/account/notifications" className="btn">
          {t('noticeSettings.title')}
        </Link>
      </section>
    </div>
  );
}

/** The proof that turns two-step sign-in off: a current code, or the password (the contract's TotpDisable takes one of them). */
const ByCode = z.object({ code: TotpCode });
const ByPassword = z.object({ password: z.string().min(1).max(200) });

/** Two-step sign-in is on: it is turned off with a current code, or with the password when the phone is lost. */
function TotpOff() {
  const { t } = useTranslation();
  const setSession = useSetSession();
  const off = useApiMutation(disable, { onSuccess: (u) => setSession(u) });
  const [withPassword, setWithPassword] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const form = useZodForm(withPassword ? (ByPassword as unknown as typeof ByCode) : ByCode, {
    defaultValues: { code: '', password: '' } as never,
  });
  const problem = useServerProblems(form, error, { code: t('signIn.code'), password: t('signIn.password') });
  const submit = form.handleSubmit(async (body) => {
    setError(null);
    await off
      .mutateAsync({ body: withPassword ? { password: (body as unknown as { password: string }).password } : { code: body.code } })
      .catch(setError);
  });

  function switchProof() {
    setWithPassword(!withPassword);
    form.reset({ code: '', password: '' } as never);
    setError(null);
  }

  return (
    <>
      <p role="status">{t('account.totpOn')}</p>
      <FormProvider {...form}>
        <form onSubmit={(e) => void submit(e)} aria-label={t('account.totpOffTitle')} noValidate>
          {withPassword ? (
            <TextField
              key="password"
              name="password"
              label={t('signIn.password')}
              type="password"
              autoComplete="current-password"
              required
              maxLength={200}
            />
          ) : (
            <TextField
              key="code"
              name="code"
              label={t('signIn.code')}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              required
            />
          )}
          <FormFooter
            problem={problem}
            submitLabel={t('account.totpDisable')}
            tone="danger"
            actions={
              <button type="button" className="btn" onClick={switchProof}>
                {withPassword ? t('account.totpUseCode') : t('account.totpUsePassword')}
              </button>
            }
          />
        </form>
      </FormProvider>
    </>
  );
}
