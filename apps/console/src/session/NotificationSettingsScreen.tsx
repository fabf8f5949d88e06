import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  deliveredNotificationTypes,
  notificationsEndpoints,
  notificationTypes,
  type ChannelPreference,
  type NotificationSettings,
  type NotificationType,
} from '@corridor/contracts/notifications';
import { notificationRulesEndpoints } from '@corridor/contracts/notification-rules';
import { endpoint } from '../api/endpoint';
import { useApiMutation, useApiQuery } from '../api/hooks';
import { Field, FormError, useFieldErrors } from '../ui/forms';
import { ErrorState, Loading } from '../ui/states';
import { useUser } from './useUser';

const getSettings = endpoint(notificationsEndpoints, 'notificationSettings.get');
const putSettings = endpoint(notificationsEndpoints, 'notificationSettings.update');
const notificators = endpoint(notificationRulesEndpoints, 'notifications.notificators');

type Channel = keyof ChannelPreference;
const delivered = (type: NotificationType) => (deliveredNotificationTypes as readonly NotificationType[]).includes(type);

/**
 * The signed-in user's notification channels (/settings/notification): for each notice type, the
 * inbox, email and webhook switches, with the address mail goes to and the webhook URL. Email can
 * only be turned on when the server has a mail channel (GET /notifications/notificators lists mail
 * then); otherwise its switches are disabled with the reason, as the server would refuse them. Email
 * and webhook apply to the notices delivered after a decision; the others reach mail and webhooks
 * through notification rules, so only their inbox switch is shown. A new address is used once
 * verified: the server mails it a link (/verify-email) and the screen says where mail goes meanwhile.
 */
export default function NotificationSettingsScreen() {
  const { t } = useTranslation();
  const settings = useApiQuery(getSettings);
  const channels = useApiQuery(notificators, { query: {} });
  return (
    <div className="screen">
      <p className="small">
        <Link to="/account">← {t('account.title')}</Link>
      </p>
      <div className="screen-head">
        <h1>{t('noticeSettings.title')}</h1>
      </div>
      {settings.isPending || channels.isPending ? (
        <Loading />
      ) : settings.error || channels.error || !settings.data || !channels.data ? (
        <ErrorState error={settings.error ?? channels.error} retry={() => void Promise.all([settings.refetch(), channels.refetch()])} />
      ) : (
        <SettingsForm saved={settings.data} mailAvailable={channels.data.some((c) => c.type === 'mail')} />
      )}
    </div>
  );
}

function SettingsForm({ saved, mailAvailable }: { saved: NotificationSettings; mailAvailable: boolean }) {
  const { t } = useTranslation();
  const user = useUser();
  // the address field shows the one waiting for its link, if any: saving it again mails no second link
  const [v, setV] = useState(() => ({
    channels: saved.channels,
    email: saved.pendingEmail ?? saved.email ?? '',
    webhookUrl: saved.webhookUrl ?? '',
  }));
  const [pending, setPending] = useState(() => ({ pendingEmail: saved.pendingEmail, email: saved.email }));
  // what the server holds: an email switch already on stays changeable (off) without a mail channel
  const [held, setHeld] = useState(saved.channels);
  const save = useApiMutation(putSettings, {
    invalidates: ['notificationSettings.'],
    onSuccess: (s) => {
      setHeld(s.channels);
      setPending({ pendingEmail: s.pendingEmail, email: s.email });
      setV({ channels: s.channels, email: s.pendingEmail ?? s.email ?? '', webhookUrl: s.webhookUrl ?? '' });
    },
  });
  const errors = useFieldErrors(save.error);
  const anyWebhook = notificationTypes.some((type) => delivered(type) && v.channels[type].webhook);

  function toggle(type: NotificationType, channel: Channel, on: boolean) {
    save.reset();
    setV((s) => ({ ...s, channels: { ...s.channels, [type]: { ...s.channels[type], [channel]: on } } }));
  }
  async function submit(e: FormEvent) {
    e.preventDefault();
    await save
      .mutateAsync({ body: { channels: v.channels, email: v.email.trim() || null, webhookUrl: v.webhookUrl.trim() || null } })
      .catch(() => undefined);
  }

  const box = (type: NotificationType, channel: Channel) => {
    const locked = channel === 'email' && !mailAvailable && !held[type].email;
    return (
      <input
        type="checkbox"
        aria-label={t('noticeSettings.switch', { type: t(`noticeSettings.types.${type}`), channel: t(`noticeSettings.${channel}`) })}
        checked={v.channels[type][channel]}
        disabled={locked}
        title={locked ? t('noticeSettings.mailUnavailable') : undefined}
        aria-describedby={locked ? 'mail-unavailable' : undefined}
        onChange={(e) => toggle(type, channel, e.target.checked)}
      />
    );
  };

  return (
    <form className="card narrow" onSubmit={submit} aria-label={t('noticeSettings.title')}>
      <p className="muted mt-0">{t('noticeSettings.intro')}</p>
      {!mailAvailable && (
        <p className="form-note" id="mail-unavailable">
          {t('noticeSettings.mailUnavailable')}
        </p>
      )}
      <div className="table-wrap">
        <table className="data notice-switches">
          <thead>
            <tr>
              <th scope="col">{t('noticeSettings.notice')}</th>
              <th scope="col">{t('noticeSettings.web')}</th>
              <th scope="col">{t('noticeSettings.email')}</th>
              <th scope="col">{t('noticeSettings.webhook')}</th>
            </tr>
          </thead>
          <tbody>
            {notificationTypes.map((type) => (
              <tr key={type}>
                <th scope="row">{t(`noticeSettings.types.${type}`)}</th>
                <td>{box(type, 'web')}</td>
                {delivered(type) ? (
                  <>
                    <td>{box(type, 'email')}</td>
                    <td>{box(type, 'webhook')}</td>
                  </>
                ) : (
                  <td colSpan={2} className="muted small">
                    {t('noticeSettings.byRules')}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="form-grid mt">
        <Field
          label={t('noticeSettings.emailAddress')}
          name="email"
          error={errors.email}
          hint={t('noticeSettings.emailHint', { email: user.email })}
        >
          <input
            type="email"
            autoComplete="email"
            maxLength={254}
            value={v.email}
            disabled={!mailAvailable && !v.email}
            onChange={(e) => (save.reset(), setV((s) => ({ ...s, email: e.target.value })))}
          />
        </Field>
        {pending.pendingEmail && (
          <p className="form-note" role="status">
            {t('noticeSettings.emailPending', { pending: pending.pendingEmail, current: pending.email ?? user.email })}
          </p>
        )}
        <Field label={t('noticeSettings.webhookUrl')} name="webhookUrl" error={errors.webhookUrl} hint={t('noticeSettings.webhookHint')}>
          <input
            type="url"
            inputMode="url"
            maxLength={2000}
            required={anyWebhook}
            value={v.webhookUrl}
            onChange={(e) => (save.reset(), setV((s) => ({ ...s, webhookUrl: e.target.value })))}
          />
        </Field>
      </div>
      {save.error && !errors.email && !errors.webhookUrl && <FormError error={save.error} />}
      {save.isSuccess && (
        <p className="form-ok" role="status">
          {t('noticeSettings.saved')}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={save.isPending}>
          {save.isPending ? t('common.saving') : t('noticeSettings.save')}
        </button>
      </div>
    </form>
  );
}
