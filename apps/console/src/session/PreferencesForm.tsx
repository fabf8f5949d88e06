import { useMemo, useState } from 'react';
import { FormProvider } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { CoordinateFormat, DistanceUnit, PreferencesInput, SpeedUnit } from '@corridor/contracts/preferences';
import { SelectField } from '../ui/form/fields';
import { FormFooter } from '../ui/form/FormFooter';
import { useServerProblems } from '../ui/form/server-errors';
import { useZodForm } from '../ui/form/useZodForm';
import { usePreferences, useSavePreferences } from './preferences';

const THEMES = ['system', 'light', 'dark'] as const;
/** Where the API keeps each field (a refusal names these paths). */
const PREFERENCE_PATHS = {
  'attributes.speedUnit': 'speedUnit',
  'attributes.distanceUnit': 'distanceUnit',
  'attributes.timezone': 'timezone',
  'attributes.language': 'language',
  'attributes.darkMode': 'theme',
  coordinateFormat: 'coordinateFormat',
} as const;
/** The form's values: the contract's preferences, with the dark mode as a choice of three. */
const Form = PreferencesInput.omit({ darkMode: true }).extend({ theme: z.enum(THEMES) });
type FormValues = z.output<typeof Form>;

/** Every time zone the browser knows, East Africa's first. */
function timeZones(): string[] {
  const all =
    typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : ['UTC', 'Africa/Nairobi', 'Africa/Dar_es_Salaam'];
  const first = ['Africa/Nairobi', 'Africa/Dar_es_Salaam', 'Africa/Kampala', 'Africa/Kigali', 'UTC'];
  return [...first.filter((z) => all.includes(z) || z === 'UTC'), ...all.filter((z) => !first.includes(z))];
}

/**
 * The user's preferences (Traccar's user attributes): speed and distance units, time zone,
 * coordinate format, language and dark mode. Screens and the files of reports show them.
 */
export function PreferencesForm() {
  const { t } = useTranslation();
  const current = usePreferences();
  const save = useSavePreferences();
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const zones = useMemo(timeZones, []);
  const form = useZodForm(Form, {
    defaultValues: {
      speedUnit: current.speedUnit,
      distanceUnit: current.distanceUnit,
      timezone: current.timezone,
      coordinateFormat: current.coordinateFormat,
      language: current.language,
      theme: current.darkMode === null ? 'system' : current.darkMode ? 'dark' : 'light',
    },
  });
  const labels = {
    speedUnit: t('preferences.speedUnit'),
    distanceUnit: t('preferences.distanceUnit'),
    timezone: t('preferences.timezone'),
    coordinateFormat: t('preferences.coordinateFormat'),
    language: t('preferences.language'),
    theme: t('preferences.theme'),
  };
  const problem = useServerProblems(form, error, labels, PREFERENCE_PATHS);
  const onSubmit = form.handleSubmit(async ({ theme, ...v }: FormValues) => {
    setError(null);
    setSaved(false);
    try {
      await save({ ...v, darkMode: theme === 'system' ? null : theme === 'dark' });
      form.reset({ ...v, theme });
      setSaved(true);
    } catch (e) {
      setError(e);
    }
  });
  const option =
    <V extends string>(group: string) =>
    (value: V) => ({ value, label: t(`preferences.${group}.${value}` as 'preferences.themes.system') });
  return (
    <FormProvider {...form}>
      <form onSubmit={onSubmit} aria-labelledby="prefs-head" noValidate>
        <div className="form-grid">
          <SelectField name="speedUnit" label={labels.speedUnit} options={SpeedUnit.options.map(option('speedUnits'))} />
          <SelectField name="distanceUnit" label={labels.distanceUnit} options={DistanceUnit.options.map(option('distanceUnits'))} />
          <SelectField
            name="coordinateFormat"
            label={labels.coordinateFormat}
            options={CoordinateFormat.options.map(option('coordinateFormats'))}
          />
          <SelectField
            name="timezone"
            label={labels.timezone}
            hint={t('preferences.timezoneHint')}
            empty={t('preferences.browserZone')}
            emptyIsNull
            options={zones.map((z) => ({ value: z, label: z.replaceAll('_', ' ') }))}
          />
          <SelectField
            name="language"
            label={labels.language}
            empty={t('preferences.browserLanguage')}
            emptyIsNull
            options={[
              { value: 'en', label: t('languages.en') },
              { value: 'sw', label: t('languages.sw') },
            ]}
          />
          <SelectField name="theme" label={labels.theme} options={THEMES.map(option('themes'))} />
        </div>
        <FormFooter problem={problem} done={saved && !form.formState.isDirty && t('preferences.saved')} submitLabel={t('common.save')} />
      </form>
    </FormProvider>
  );
}
