import { useState } from 'react';
import { FormProvider } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ObservatoryPlaceKind, ObservatorySettingsInput, type ObservatorySettings } from '@corridor/contracts/observatory';
import { useApiMutation, useApiQuery } from '../../api/hooks';
import { useFormat } from '../../i18n/format';
import { may } from '../../session/access';
import { useSession } from '../../session/useSession';
import { TextField } from '../../ui/form/fields';
import { FormAlert } from '../../ui/form/FormAlert';
import { FormFooter } from '../../ui/form/FormFooter';
import { useServerProblems } from '../../ui/form/server-errors';
import { useZodForm } from '../../ui/form/useZodForm';
import { ErrorState, Loading } from '../../ui/states';
import { observatorySettings, observatoryUpdateSettings } from './observatory';

/**
 * How the observatory counts (the association's settings): the wait over which a visit counts as
 * long at each kind of place (the share over the threshold), the fewest trucks of the other
 * companies shown to a company and in the open data, and the shortest stop counted. Everyone reads
 * them under the figures they explain; officers and administrators change them here (audited by
 * the API), and every indicator on the screen is read again.
 */
export function ObservatorySettingsCard() {
  const { t } = useTranslation();
  const f = useFormat();
  const session = useSession();
  const q = useApiQuery(observatorySettings, {});
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  const canSet = may(session.user, observatoryUpdateSettings);
  return (
    <section className="card stack mt" aria-labelledby="obs-settings-title">
      <div className="screen-head">
        <h2 id="obs-settings-title">{t('observatory.settings.title')}</h2>
        {canSet && !editing && q.data && (
          <button
            type="button"
            className="btn"
            onClick={() => {
              setEditing(true);
              setSaved(false);
            }}
            data-testid="obs-settings-edit"
          >
            {t('observatory.settings.edit')}
          </button>
        )}
      </div>
      {q.isPending ? (
        <Loading />
      ) : q.error || !q.data ? (
        <ErrorState error={q.error} retry={() => void q.refetch()} />
      ) : editing ? (
        <SettingsForm
          current={q.data}
          onCancel={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            setSaved(true);
          }}
        />
      ) : (
        <>
          <ul className="small" data-testid="obs-settings">
            {ObservatoryPlaceKind.options.map((k) => (
              <li key={k}>
                {t('observatory.settings.thresholdOf', {
                  kind: t(`observatory.kind.${k}`),
                  wait: f.duration(q.data.dwellThresholdMinutes[k] * 60),
                })}
              </li>
            ))}
            <li>{t('observatory.settings.minTrucksIs', { count: q.data.minTrucks })}</li>
            <li>{t('observatory.settings.minStopIs', { count: q.data.minStopMinutes })}</li>
          </ul>
          {q.data.updatedAt && <p className="small muted">{t('observatory.settings.updated', { at: f.dateTime(q.data.updatedAt) })}</p>}
          <FormAlert message={null} done={saved && t('observatory.settings.saved')} />
        </>
      )}
    </section>
  );
}

function SettingsForm({ current, onSaved, onCancel }: { current: ObservatorySettings; onSaved: () => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const save = useApiMutation(observatoryUpdateSettings, { invalidates: ['observatory.'] });
  const form = useZodForm(ObservatorySettingsInput, {
    defaultValues: {
      dwellThresholdMinutes: current.dwellThresholdMinutes,
      minTrucks: current.minTrucks,
      minStopMinutes: current.minStopMinutes,
    },
  });
  const labels: Record<string, string> = {
    ...Object.fromEntries(
      ObservatoryPlaceKind.options.map((k) => [
        `dwellThresholdMinutes.${k}`,
        t('observatory.settings.thresholdField', { kind: t(`observatory.kind.${k}`) }),
      ]),
    ),
    minTrucks: t('observatory.settings.minTrucks'),
    minStopMinutes: t('observatory.settings.minStop'),
  };
  const problem = useServerProblems(form, save.error, labels);
  const onSubmit = form.handleSubmit(async (body) => {
    // a refusal stays on the form (useServerProblems places it)
    await save.mutateAsync({ body }).then(onSaved, () => undefined);
  });
  return (
    <FormProvider {...form}>
      <form onSubmit={onSubmit} aria-label={t('observatory.settings.title')} noValidate>
        <div className="form-grid">
          {ObservatoryPlaceKind.options.map((k) => (
            <TextField
              key={k}
              name={`dwellThresholdMinutes.${k}`}
              label={labels[`dwellThresholdMinutes.${k}`]}
              hint={t('observatory.settings.minutesHint')}
              type="number"
              inputMode="numeric"
              min={1}
              max={10_080}
              valueAsNumber
              required
            />
          ))}
          <TextField
            name="minTrucks"
            label={labels.minTrucks}
            hint={t('observatory.settings.minTrucksHint')}
            type="number"
            inputMode="numeric"
            min={3}
            max={100}
            valueAsNumber
            required
          />
          <TextField
            name="minStopMinutes"
            label={labels.minStopMinutes}
            hint={t('observatory.settings.minutesHint')}
            type="number"
            inputMode="numeric"
            min={5}
            max={1440}
            valueAsNumber
            required
          />
        </div>
        <FormFooter
          problem={problem}
          submitLabel={t('common.save')}
          busy={save.isPending}
          onCancel={onCancel}
          submitTestId="obs-settings-save"
        />
      </form>
    </FormProvider>
  );
}
