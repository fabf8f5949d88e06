import { useMemo } from 'react';
import { FormProvider } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { AlarmType } from '@corridor/contracts/events';
import { NotificationRuleInput, type NotificationRule } from '@corridor/contracts/notification-rules';
import { useApiMutation, useApiQuery } from '../../api/hooks';
import { useFleetDevices } from '../../live/queries';
import { CheckboxesField, CheckboxField, MultiSelectField, SelectField, TextField } from '../../ui/form/fields';
import { applyServerErrors } from '../../ui/form/server-errors';
import { useZodForm } from '../../ui/form/useZodForm';
import { FormError } from '../../ui/forms';
import { Loading } from '../../ui/states';
import { calendarsList, groupsList, notificators, ruleCreate, ruleTypes, ruleUpdate, savedCommandsList } from './rule-endpoints';

const FIELDS = [
  'type',
  'alarms',
  'always',
  'deviceIds',
  'groupIds',
  'notificators',
  'webhookUrl',
  'commandId',
  'calendarId',
  'description',
] as const;

type Values = {
  type: string;
  alarms: string[];
  always: boolean;
  deviceIds: number[];
  groupIds: number[];
  notificators: string[];
  webhookUrl: string | null;
  commandId: number | null;
  calendarId: number | null;
  description: string | null;
};

/** The form values of a rule (a new one: an alarm, to the web channel). */
function valuesOf(rule: NotificationRule | null): Values {
  if (!rule)
    return {
      type: 'alarm',
      alarms: [],
      always: true,
      deviceIds: [],
      groupIds: [],
      notificators: ['web'],
      webhookUrl: null,
      commandId: null,
      calendarId: null,
      description: null,
    };
  return {
    type: rule.type,
    alarms: rule.alarms,
    always: rule.always,
    deviceIds: rule.deviceIds,
    groupIds: rule.groupIds,
    notificators: rule.notificators.split(',').filter(Boolean),
    webhookUrl: rule.webhookUrl,
    commandId: rule.commandId || null,
    calendarId: rule.calendarId || null,
    description: rule.description, // 0: none (Traccar)
  };
}

/**
 * A notification rule, new or changed, checked by the contract's NotificationRuleInput (and, here,
 * that a rule for some trucks names at least one truck or group). The server's refusal goes back
 * under the field it names. Recipients, owner and attributes of a rule being changed are kept;
 * a new rule notifies its author (the API's default).
 */
export function RuleForm({ rule, onDone }: { rule: NotificationRule | null; onDone(): void }) {
  const { t } = useTranslation();
  const tt = t as unknown as (key: string, o?: Record<string, unknown>) => string;
  const types = useApiQuery(ruleTypes);
  const channels = useApiQuery(notificators, { query: {} });
  const devices = useFleetDevices();
  const groups = useApiQuery(groupsList, { query: { limit: 1000 } });
  const calendars = useApiQuery(calendarsList, { query: { limit: 1000 } });
  const commands = useApiQuery(savedCommandsList, { query: { limit: 1000 } });
  const schema = useMemo(
    () =>
      NotificationRuleInput.superRefine((r, ctx) => {
        if (!r.always && !r.deviceIds.length && !r.groupIds.length)
          ctx.addIssue({ code: 'custom', path: ['deviceIds'], message: 'trucks' });
      }),
    [],
  );
  const form = useZodForm(schema, { defaultValues: valuesOf(rule) as never, refinements: { deviceIds: t('rules.chooseTrucks') } });
  const create = useApiMutation(ruleCreate, { invalidates: ['notifications.'] });
  const update = useApiMutation(ruleUpdate, { invalidates: ['notifications.'] });
  const save = rule ? update : create;
  const [type, always, chosen] = form.watch(['type', 'always', 'notificators']) as [string, boolean, string[]];

  if (types.isPending || channels.isPending || devices.isPending) return <Loading />;
  const submit = form.handleSubmit(async (v) => {
    const body = {
      ...(v as unknown as Values),
      ...(rule ? { recipients: rule.recipients, companyId: rule.companyId, attributes: rule.attributes } : {}),
    };
    try {
      if (rule) await update.mutateAsync({ params: { id: rule.id }, body: body as never });
      else await create.mutateAsync({ body: body as never });
      onDone();
    } catch (e) {
      applyServerErrors(e, form.setError, FIELDS);
    }
  });
  const named = <T extends { id: number; name?: string; description?: string }>(rows: unknown) =>
    ((rows ?? []) as T[]).map((x) => ({ value: x.id, label: x.name ?? x.description ?? `#${x.id}` }));

  return (
    <FormProvider {...form}>
      <form className="card rule-form" onSubmit={(e) => void submit(e)} noValidate aria-labelledby="rule-form-title">
        <h2 id="rule-form-title">{rule ? t('rules.editTitle') : t('rules.new')}</h2>
        <div className="form-grid">
          <SelectField
            name="type"
            label={t('rules.event')}
            required
            options={(types.data ?? []).map((x) => ({ value: x.type, label: tt(`eventType.${x.type}`, { defaultValue: x.type }) }))}
          />
          <TextField name="description" label={t('rules.description')} hint={t('rules.descriptionHint')} maxLength={500} />
        </div>
        {type === 'alarm' && (
          <CheckboxesField
            name="alarms"
            label={t('rules.alarms')}
            hint={t('rules.alarmsHint')}
            options={AlarmType.options.map((a) => ({ value: a, label: tt(`alarmType.${a}`) }))}
          />
        )}
        <CheckboxField name="always" label={t('rules.allTrucks')} hint={t('rules.allTrucksHint')} />
        {!always && (
          <div className="form-grid">
            <MultiSelectField
              name="deviceIds"
              label={t('rules.devices')}
              hint={t('rules.multiHint')}
              options={(devices.data ?? []).map((d) => ({ value: d.id, label: d.name }))}
            />
            <MultiSelectField
              name="groupIds"
              label={t('rules.groups')}
              hint={t('rules.multiHint')}
              options={named(groups.data)}
              disabled={!groups.data?.length}
            />
          </div>
        )}
        <CheckboxesField
          name="notificators"
          label={t('rules.channels')}
          hint={t('rules.channelsHint')}
          required
          options={(channels.data ?? []).map((c) => ({ value: c.type, label: tt(`rules.channel.${c.type}`, { defaultValue: c.type }) }))}
        />
        {(chosen ?? []).includes('webhook') && (
          <TextField
            name="webhookUrl"
            type="url"
            inputMode="url"
            label={t('rules.webhookUrl')}
            hint={t('rules.webhookHint')}
            required
            maxLength={2000}
          />
        )}
        {(chosen ?? []).includes('command') && (
          <SelectField
            name="commandId"
            label={t('rules.command')}
            hint={t('rules.commandHint')}
            numeric
            emptyIsNull
            empty={t('common.choose')}
            required
            options={named(commands.data)}
          />
        )}
        <SelectField
          name="calendarId"
          label={t('rules.when')}
          hint={t('rules.calendarHint')}
          numeric
          emptyIsNull
          empty={t('rules.always')}
          options={named(calendars.data)}
        />
        {save.error && Object.keys(form.formState.errors).length === 0 && <FormError error={save.error} />}
        <div className="form-actions">
          <button type="button" className="btn" onClick={onDone}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="btn btn-primary" disabled={form.formState.isSubmitting}>
            {form.formState.isSubmitting ? t('common.saving') : t('rules.save')}
          </button>
        </div>
      </form>
    </FormProvider>
  );
}
