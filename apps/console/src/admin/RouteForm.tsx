import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { RouteInput, routesEndpoints, type Route } from '@corridor/contracts/routes';
import { endpoint } from '../api/endpoint';
import { useApiMutation } from '../api/hooks';
import { TextAreaField, TextField } from '../ui/form/fields';
import { FormCard, useSending } from '../ui/form/FormCard';
import { useServerProblems } from '../ui/form/server-errors';
import { useZodForm } from '../ui/form/useZodForm';

const create = endpoint(routesEndpoints, 'routes.create');
const update = endpoint(routesEndpoints, 'routes.update');

/** The form's values: the contract's RouteInput fields a person edits, one speed limit for the whole route and the duration in hours. */
const Form = RouteInput.pick({ name: true, code: true, description: true, widthM: true }).extend({
  limit: RouteInput.shape.speedLimitsKmh.element.optional(),
  hours: z.number().positive().max(720),
});
/** The API's paths that are another field of the form. */
const ALIASES = { speedLimitsKmh: 'limit', expectedDurationMinutes: 'hours', line: 'line', legs: 'line' } as const;

/** What PUT takes of a stored route: its input fields, the server's own (id, length, version, times) left out. */
function inputOf(r: Route) {
  const { id: _id, lengthM: _l, segmentCount: _s, version: _v, createdAt: _c, updatedAt: _u, ...input } = r;
  return input;
}

/**
 * A corridor route, new or edited, checked by the contract's RouteInput before it is sent: name,
 * code, description, width, one speed limit for the whole route (a route with a limit per segment
 * keeps them unless one is given) and the expected duration; its line as drawn or moved on the map
 * (`line`: null keeps an edited route's line or legs as stored). Everything else of an edited route
 * (stop areas, thresholds, countries) is kept.
 */
export function RouteForm({
  route,
  line,
  onUndo,
  onSaved,
  onCancel,
}: {
  route: Route | null;
  line: [number, number][] | null;
  onUndo?(): void;
  onSaved(r: Route): void;
  onCancel(): void;
}) {
  const { t } = useTranslation();
  const add = useApiMutation(create, { invalidates: ['routes.'] });
  const change = useApiMutation(update, { invalidates: ['routes.'] });
  const single = route && route.speedLimitsKmh.length === 1 ? route.speedLimitsKmh[0] : undefined;
  const form = useZodForm(Form, {
    defaultValues: {
      name: route?.name ?? '',
      code: route?.code ?? null,
      description: route?.description ?? null,
      widthM: route?.widthM ?? 2000,
      limit: route ? single : 80,
      hours: route ? Math.round((route.expectedDurationMinutes / 60) * 100) / 100 : 24,
    },
  });
  const labels = {
    name: t('devices.name'),
    code: t('routes.code'),
    description: t('routes.description'),
    widthM: t('geofences.halfWidth'),
    limit: t('routes.limit'),
    hours: t('routes.hours'),
    line: t('routes.line'),
  };
  const { submit, error } = useSending(form.handleSubmit, async ({ limit, hours, ...v }: z.output<typeof Form>) => {
    const speedLimitsKmh = limit !== undefined ? [limit] : (route?.speedLimitsKmh ?? []);
    const geometry = line ? { line, legs: null } : {};
    const body = { ...(route ? inputOf(route) : {}), ...v, ...geometry, speedLimitsKmh, expectedDurationMinutes: Math.round(hours * 60) };
    onSaved(
      route ? await change.mutateAsync({ params: { id: route.id }, body: body as never }) : await add.mutateAsync({ body: body as never }),
    );
  });
  const problem = useServerProblems(form, error, labels, ALIASES);
  const enough = line === null || line.length >= 2;
  const undo = onUndo && (
    <button type="button" className="btn" onClick={onUndo} disabled={!line?.length}>
      {t('geofences.undo')}
    </button>
  );
  return (
    <FormCard
      form={form}
      title={route ? t('routes.editTitle', { name: route.name }) : t('routes.draw')}
      onSubmit={submit}
      ready={enough}
      onCancel={onCancel}
      problem={problem}
      actions={undo}
    >
      <p className="small muted">{route ? (line ? t('routes.howToEdit') : t('routes.lineKept')) : t('routes.howTo')}</p>
      {line && <p className="small">{t('geofences.points', { count: line.length })}</p>}
      <div className="form-grid">
        <TextField name="name" label={labels.name} required maxLength={128} />
        <TextField
          name="code"
          label={labels.code}
          hint={t('routes.codeHint')}
          maxLength={64}
          placeholder="nairobi-namanga"
          emptyIsNull
          className="mono"
        />
        <TextField name="widthM" label={labels.widthM} type="number" min={50} max={20000} required valueAsNumber />
        <TextField
          name="limit"
          label={labels.limit}
          hint={route && single === undefined ? t('routes.limitPerSegment') : undefined}
          type="number"
          min={5}
          max={200}
          valueAsNumber
          required={!route || single !== undefined}
        />
        <TextField name="hours" label={labels.hours} type="number" min={0.1} max={720} step="any" required valueAsNumber />
        <TextAreaField name="description" label={labels.description} rows={2} maxLength={2000} className="span-all" />
      </div>
    </FormCard>
  );
}
