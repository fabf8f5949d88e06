import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { usersEndpoints } from '@corridor/contracts/users';
import { endpoint } from '../api/endpoint';
import { useApiMutation } from '../api/hooks';
import { Field, FormError, useFieldErrors } from '../ui/forms';
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
  const finishErrors = useFieldErrors(finish.error);
  const [code, setCode] = useState('');
  const secret = start.data;
  const link = secret ? `otpauth://totp/${encodeURIComponent(`Corridor:${user.email}`)}?secret=${secret}&issuer=Corridor&algorithm=SHA1&digits=6&period=30` : null;

  async function submit(e: FormEvent) {
    e.preventDefault();
    await finish.mutateAsync({ body: { code: code.trim() } }).catch(() => undefined);
  }

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
          <form onSubmit={submit} aria-label={t('account.totp')}>
            <p>{t('account.totpAdd')}</p>
            <p>
              <a href={link!}>{t('account.totpLink')}</a>
            </p>
            <p>
              {t('account.totpSecret')} <code className="mono" data-testid="totp-secret">{grouped(secret)}</code>
            </p>
            <Field label={t('signIn.code')} name="code" error={finishErrors.code}>
              <input inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" maxLength={6} required value={code} onChange={(e) => setCode(e.target.value)} />
            </Field>
            <FormError error={finish.error} />
            <button type="submit" className="btn btn-primary" disabled={finish.isPending}>
              {t('account.totpConfirm')}
            </button>
          </form>
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

/** Two-step sign-in is on: it is turned off with a current code, or with the password when the phone is lost. */
function TotpOff() {
  const { t } = useTranslation();
  const setSession = useSetSession();
  const off = useApiMutation(disable, { onSuccess: (u) => setSession(u) });
  const [withPassword, setWithPassword] = useState(false);
  const [value, setValue] = useState('');
  const errors = useFieldErrors(off.error);

  async function submit(e: FormEvent) {
    e.preventDefault();
    await off.mutateAsync({ body: withPassword ? { password: value } : { code: value.trim() } }).catch(() => undefined);
  }

  function switchProof() {
    setWithPassword(!withPassword);
    setValue('');
    off.reset();
  }

  return (
    <>
      <p role="status">{t('account.totpOn')}</p>
      <form onSubmit={submit} aria-label={t('account.totpOffTitle')}>
        {withPassword ? (
          <Field label={t('signIn.password')} name="password" error={errors.password}>
            <input type="password" autoComplete="current-password" required value={value} onChange={(e) => setValue(e.target.value)} />
          </Field>
        ) : (
          <Field label={t('signIn.code')} name="code" error={errors.code}>
            <input inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" maxLength={6} required value={value} onChange={(e) => setValue(e.target.value)} />
          </Field>
        )}
        <FormError error={off.error} />
        <div className="form-actions">
          <button type="submit" className="btn btn-danger" disabled={off.isPending}>
            {t('account.totpDisable')}
          </button>
          <button type="button" className="btn" onClick={switchProof}>
            {withPassword ? t('account.totpUseCode') : t('account.totpUsePassword')}
          </button>
        </div>
      </form>
    </>
  );
}
