import type { z } from 'zod';
import { useTranslation } from 'react-i18next';
import { GeofenceInput, GeofenceKind, geofencesEndpoints, type Geofence } from '@corridor/contracts/geofences';
import { endpoint } from '../api/endpoint';
import { useApiMutation, useApiQuery } from '../api/hooks';
import { calendarsList } from '../dispatch/rules/rule-endpoints';
import { SelectField, TextField } from '../ui/form/fields';
import { FormCard, useSending } from '../ui/form/FormCard';
import { useServerProblems } from '../ui/form/server-errors';
import { useZodForm } from '../ui/form/useZodForm';
import { draftComplete, draftGeometry, type Draft } from './geofence-draft';

const create = endpoint(geofencesEndpoints, 'geofences.create');
const update = endpoint(geofencesEndpoints, 'geofences.update');
/** The corridor's countries offered first; a fence's own country is offered too when it is another. */
const COUNTRIES = ['BI', 'CD', 'ET', 'KE', 'RW', 'SS', 'TZ', 'UG'];

/**
 * A geofence, new or edited, checked by the contract's GeofenceInput before it is sent: its name,
 * kind, country and calendar here, its shape from the corners drawn or moved on the map (`draft`;
 * null when an edited fence's shape cannot be edited by its corners: its area is sent as stored).
 * An edited fence keeps its attributes and owner.
 */
export function GeofenceForm({
  fence,
  draft,
  onDraft,
  onSaved,
  onCancel,
}: {
  fence: Geofence | null;
  draft: Draft | null;
  onDraft(d: Draft): void;
  onSaved(g: Geofence): void;
  onCancel(): void;
}) {
  const { t, i18n } = useTranslation();
  const add = useApiMutation(create, { invalidates: ['geofences.'] });
  const change = useApiMutation(update, { invalidates: ['geofences.'] });
  const calendars = useApiQuery(calendarsList, { query: {} });
  const form = useZodForm(GeofenceInput, {
    defaultValues: {
      name: fence?.name ?? '',
      description: fence?.description ?? null,
      kind: fence?.kind ?? 'other',
      country: fence?.country ?? null,
      calendarId: fence?.calendarId || null,
      attributes: fence?.attributes ?? {},
      companyId: fence?.companyId ?? null,
    },
  });
  const labels = {
    name: t('devices.name'),
    kind: t('geofences.kind'),
    country: t('geofences.country'),
    calendarId: t('geofences.calendar'),
  };
  const shapeWord = t('geofences.shape');
  const names = new Intl.DisplayNames([i18n.language], { type: 'region' });
  const countries = [...new Set([...COUNTRIES, ...(fence?.country ? [fence.country] : [])])].map((c) => ({
    value: c,
    label: `${names.of(c) ?? c} (${c})`,
  }));
  const calendarOptions = ((calendars.data ?? []) as { id: number; name: string }[]).map((c) => ({ value: c.id, label: c.name }));

  const { submit: save, error } = useSending(form.handleSubmit, async (v: z.output<typeof GeofenceInput>) => {
    const shape = draft ? draftGeometry(draft) : null;
    const attributes = { ...v.attributes };
    if (shape?.polylineDistance) attributes.polylineDistance = shape.polylineDistance;
    const body = {
      ...v,
      name: v.name.trim(),
      attributes,
      ...(shape
        ? {
            geometry: shape.geometry as unknown as Record<string, unknown>,
            area: undefined,
            ...(shape.radius ? { radius: shape.radius } : {}),
          }
        : { area: fence!.area, geometry: undefined }),
    };
    onSaved(fence ? await change.mutateAsync({ params: { id: fence.id }, body }) : await add.mutateAsync({ body }));
  });
  const problem = useServerProblems(
    form,
    error,
    labels,
    {},
    { area: shapeWord, geometry: shapeWord, radius: shapeWord, 'attributes.polylineDistance': shapeWord },
  );
  // the shape is the draft's, not a field of its own: the form is checked with it in place
  const submit = async (e?: React.BaseSyntheticEvent) => {
    if (draft) form.setValue('geometry', draftGeometry(draft).geometry as unknown as Record<string, unknown>);
    else if (fence) form.setValue('area', fence.area);
    await save(e);
  };
  const title = fence ? t('geofences.editTitle', { name: fence.name }) : t('geofences.new');
  const undo = draft && !fence && (
    <button
      type="button"
      className="btn"
      onClick={() => onDraft({ ...draft, points: draft.points.slice(0, -1) })}
      disabled={!draft.points.length}
    >
      {t('geofences.undo')}
    </button>
  );
  return (
    <FormCard
      form={form}
      title={title}
      heading={fence || !draft ? title : t(`geofences.drawShape.${draft.shape}`)}
      onSubmit={submit}
      onCancel={onCancel}
      problem={problem}
      actions={undo}
      ready={draft === null || draftComplete(draft)}
    >
      <p className="small muted">
        {draft ? t(fence ? 'geofences.howToEdit' : `geofences.howTo.${draft.shape}`) : t('geofences.shapeKept')}
      </p>
      {draft && <p className="small">{t('geofences.points', { count: draft.points.length })}</p>}
      {draft && draft.shape !== 'polygon' && (
        <label className="field">
          <span>{draft.shape === 'circle' ? t('geofences.radius') : t('geofences.halfWidth')}</span>
          <input
            type="number"
            min={10}
            max={50000}
            value={draft.metres}
            onChange={(e) => onDraft({ ...draft, metres: Number(e.target.value) || 0 })}
          />
        </label>
      )}
      <TextField name="name" label={labels.name} required maxLength={128} />
      <div className="form-grid">
        <SelectField
          name="kind"
          label={labels.kind}
          options={GeofenceKind.options.map((k) => ({ value: k, label: t(`geofences.kinds.${k}`) }))}
        />
        <SelectField
          name="country"
          label={labels.country}
          hint={t('geofences.countryHint')}
          emptyIsNull
          empty={t('geofences.noCountry')}
          options={countries}
        />
        <SelectField
          name="calendarId"
          label={labels.calendarId}
          hint={t('geofences.calendarHint')}
          numeric
          emptyIsNull
          empty={t('geofences.alwaysActive')}
          options={calendarOptions}
        />
      </div>
    </FormCard>
  );
}
