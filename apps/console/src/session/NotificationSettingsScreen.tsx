import { useState } from 'react';
import { FormProvider } from 'react-hook-form';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { z } from 'zod';
import {
  ChannelPreference,
  deliveredNotificationTypes,
  NotificationSettingsInput,
  notificationsEndpoints,
  notificationTypes,
  NotificationType,
  type NotificationSettings,
} from '@corridor/contracts/notifications';
import { notificationRulesEndpoints } from '@corridor/contracts/notification-rules';
import { endpoint } from '../api/endpoint';
import { useApiMutation, useApiQuery } from '../api/hooks';
import { TextField } from '../ui/form/fields';
import { FormFooter } from '../ui/form/FormFooter';
import { useServerProblems } from '../ui/form/server-errors';
import { useZodForm } from '../ui/form/useZodForm';
import { ErrorState, Loading } from '../ui/states';
import { useUser } from './useUser';

const getSettings = endpoint(notificationsEndpoints, 'notificationSettings.get');
const putSettings = endpoint(notificationsEndpoints, 'notificationSettings.update');
const notificators = endpoint(notificationRulesEndpoints, 'notifications.notificators');

type Channel = keyof z.infer<typeof ChannelPreference>;
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

/**
 * The form's values: the contract's NotificationSettingsInput with every type's channels (the screen
 * shows them all), and the rule the server enforces said before sending: a webhook switch on needs a URL.
 */
const Form = NotificationSettingsInput.extend({ channels: z.record(NotificationType, ChannelPreference) }).superRefine((v, ctx) => {
  if (!v.webhookUrl && notificationTypes.some((type) => delivered(type) && v.channels[type].webhook))
    ctx.addIssue({ code: 'custom', path: ['webhookUrl'], message: 'a webhook switch is on' });
});
type Values = z.input<typeof Form>;
const valuesOf = (s: NotificationSettings): Values => ({
  channels: s.channels,
  // the address field shows the one waiting for its link, if any: saving it again mails no second link
  email: s.pendingEmail ?? s.email ?? null,
  webhookUrl: s.webhookUrl ?? null,
});

function SettingsForm({ saved, mailAvailable }: { saved: NotificationSettings; mailAvailable: boolean }) {
  const { t } = useTranslation();
  const user = useUser();
  const [pending, setPending] = useState(() => ({ pendingEmail: saved.pendingEmail, email: saved.email }));
  // what the server holds: an email switch already on stays changeable (off) without a mail channel
  const [held, setHeld] = useState(saved.channels);
  const form = useZodForm(Form, {
    defaultValues: valuesOf(saved),
    refinements: { webhookUrl: t('noticeSettings.webhookNeeded') },
  });
  const save = useApiMutation(putSettings, {
    invalidates: ['notificationSettings.'],
    onSuccess: (s) => {
      setHeld(s.channels);
      setPending({ pendingEmail: s.pendingEmail, email: s.email });
      form.reset(valuesOf(s));
    },
  });
  const labels = { email: t('noticeSettings.emailAddress'), webhookUrl: t('noticeSettings.webhookUrl') };
  // a refused switch (mail is not available) is named as the screen labels it
  const switches = Object.fromEntries(
    notificationTypes.flatMap((type) =>
      (['web', 'email', 'webhook'] as const).map((c) => [`channels.${type}.${c}`, switchLabel(t, type, c)] as const),
    ),
  );
  const problem = useServerProblems(form, save.error, labels, {}, switches);
  const channels = form.watch('channels');
  const email = form.watch('email');
  const anyWebhook = notificationTypes.some((type) => delivered(type) && channels[type].webhook);
  const submit = form.handleSubmit(async (v) => {
    await save
      .mutateAsync({ body: { channels: v.channels, email: v.email?.trim() || null, webhookUrl: v.webhookUrl?.trim() || null } })
      .catch(() => undefined);
  });

  const box = (type: NotificationType, channel: Channel) => {
    const locked = channel === 'email' && !mailAvailable && !held[type].email;
    return (
      <input
        type="checkbox"
        aria-label={switchLabel(t, type, channel)}
        checked={channels[type][channel]}
        disabled={locked}
        title={locked ? t('noticeSettings.mailUnavailable') : undefined}
        aria-describedby={locked ? 'mail-unavailable' : undefined}
        onChange={(e) => {
          save.reset();
          form.setValue(`channels.${type}.${channel}`, e.target.checked, { shouldDirty: true, shouldValidate: form.formState.isSubmitted });
        }}
      />
    );
  };

  return (
    <FormProvider {...form}>
      <form className="card narrow" onSubmit={(e) => void submit(e)} aria-label={t('noticeSettings.title')} noValidate>
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
          <TextField
            name="email"
            label={labels.email}
            hint={t('noticeSettings.emailHint', { email: user.email })}
            type="email"
            autoComplete="email"
            maxLength={254}
            disabled={!mailAvailable && !email}
            emptyIsNull
          />
          {pending.pendingEmail && (
            <p className="form-note" role="status">
              {t('noticeSettings.emailPending', { pending: pending.pendingEmail, current: pending.email ?? user.email })}
            </p>
          )}
          <TextField
            name="webhookUrl"
            label={labels.webhookUrl}
            hint={t('noticeSettings.webhookHint')}
            type="url"
            inputMode="url"
            maxLength={2000}
            required={anyWebhook}
            emptyIsNull
          />
        </div>
        <FormFooter
          problem={problem}
          done={save.isSuccess && !form.formState.isDirty && t('noticeSettings.saved')}
          submitLabel={t('noticeSettings.save')}
          busyLabel={t('common.saving')}
          busy={save.isPending}
        />
      </form>
    </FormProvider>
  );
}

const switchLabel = (t: TFunction, type: NotificationType, channel: Channel) =>
  t('noticeSettings.switch', { type: t(`noticeSettings.types.${type}`), channel: t(`noticeSettings.${channel}`) });
