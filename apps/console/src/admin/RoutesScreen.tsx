import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { FeatureCollection } from 'geojson';
import { routesEndpoints, type Route } from '@corridor/contracts/routes';
import { endpoint } from '../api/endpoint';
import { useApiMutation } from '../api/hooks';
import { useFormat } from '../i18n/format';
import { DataTable, type Column } from '../ui/DataTable';
import { Field, FormError, useFieldErrors } from '../ui/forms';
import { useRoutes } from '../ui/lookups';
import { CorridorMap } from '../ui/map/CorridorMap';
import { PlannedRoute } from '../ui/map/layers/PlannedRoute';
import { bandWidth } from '../ui/map/scale';

const create = endpoint(routesEndpoints, 'routes.create');
const remove = endpoint(routesEndpoints, 'routes.delete');

function routeFeatures(line: [number, number][], widthM: number): FeatureCollection {
  if (line.length < 2) return { type: 'FeatureCollection', features: line.map((p) => ({ type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: p } })) };
  return { type: 'FeatureCollection', features: [{ type: 'Feature', properties: { kind: 'corridor', ...bandWidth(widthM, line[0]![1]) }, geometry: { type: 'LineString', coordinates: line } }] };
}

/** Corridor routes: each with its line and allowed width on the map; a new one drawn by clicking along the road. */
export default function RoutesScreen() {
  const { t } = useTranslation();
  const f = useFormat();
  const routes = useRoutes();
  const add = useApiMutation(create, { invalidates: ['routes.'] });
  const del = useApiMutation(remove, { invalidates: ['routes.'] });
  const [selected, setSelected] = useState<number | null>(null);
  const [drawing, setDrawing] = useState(false);
  const [line, setLine] = useState<[number, number][]>([]);
  const [v, setV] = useState({ name: '', code: '', widthM: 2000, limit: 80, hours: 24 });
  const route = selected ? routes.byId.get(selected) : undefined;
  const planned = useMemo(() => (drawing ? routeFeatures(line, v.widthM) : route ? routeFeatures((route.line ?? route.legs?.flat() ?? []) as [number, number][], route.widthM) : null), [drawing, line, v.widthM, route]);
  const errors = useFieldErrors(add.error);
  async function submit(e: FormEvent) {
    e.preventDefault();
    const ok = await add
      .mutateAsync({ body: { name: v.name.trim(), code: v.code.trim() || null, line, widthM: v.widthM, speedLimitsKmh: [v.limit], expectedDurationMinutes: v.hours * 60 } })
      .then(() => true, () => false);
    if (ok) {
      setDrawing(false);
      setLine([]);
    }
  }
  const columns: Column<Route>[] = [
    {
      key: 'name',
      header: t('devices.name'),
      cell: (r) => (
        <button type="button" className="link-button" aria-pressed={r.id === selected} onClick={() => (setDrawing(false), setSelected(r.id))}>
          {r.name}
        </button>
      ),
    },
    { key: 'length', header: t('routes.length'), numeric: true, cell: (r) => f.distance(r.lengthM) },
    { key: 'width', header: t('routes.width'), numeric: true, cell: (r) => f.distance(r.widthM) },
    { key: 'countries', header: t('journey.countries'), cell: (r) => r.countries.join(', ') || '—' },
    { key: 'stops', header: t('routes.stops'), numeric: true, cell: (r) => r.stopAreas.length },
    {
      key: 'actions',
      header: <span className="sr-only">{t('common.actions')}</span>,
      cell: (r) => (
        <button type="button" className="btn btn-small btn-danger" onClick={() => window.confirm(t('routes.confirmDelete', { name: r.name })) && del.mutate({ params: { id: r.id } })}>
          {t('users.delete')}
        </button>
      ),
    },
  ];
  return (
    <div className="screen">
      <div className="screen-head">
        <h1>{t('routes.title')}</h1>
        {!drawing && (
          <button type="button" className="btn btn-primary" onClick={() => (setSelected(null), setLine([]), setDrawing(true))}>
            {t('routes.draw')}
          </button>
        )}
      </div>
      {/* the map and, while drawing, the form beside it; the list below at full width (its names on one line) */}
      <div className={drawing ? 'two-col' : undefined}>
        <div className={drawing ? 'map-box map-tall' : 'map-box'}>
          <CorridorMap label={t('routes.mapLabel')} onMapClick={drawing ? (p) => setLine((l) => [...l, p]) : undefined}>
            <PlannedRoute data={planned} />
          </CorridorMap>
        </div>
        {drawing && (
          <form className="card" onSubmit={submit} aria-label={t('routes.draw')}>
            <h2>{t('routes.draw')}</h2>
            <p className="small muted">{t('routes.howTo')}</p>
            <p className="small">{t('geofences.points', { count: line.length })}</p>
            <div className="form-grid">
              <Field label={t('devices.name')} name="name" error={errors.name}>
                <input required value={v.name} onChange={(e) => setV({ ...v, name: e.target.value })} />
              </Field>
              <Field label={t('routes.code')} name="code" error={errors.code}>
                <input value={v.code} onChange={(e) => setV({ ...v, code: e.target.value })} placeholder="nairobi-namanga" />
              </Field>
              <Field label={t('geofences.halfWidth')} name="widthM" error={errors.widthM}>
                <input type="number" min={50} max={20000} value={v.widthM} onChange={(e) => setV({ ...v, widthM: Number(e.target.value) })} />
              </Field>
              <Field label={t('routes.limit')} name="limit" error={errors.speedLimitsKmh}>
                <input type="number" min={5} max={200} value={v.limit} onChange={(e) => setV({ ...v, limit: Number(e.target.value) })} />
              </Field>
              <Field label={t('routes.hours')} name="hours" error={errors.expectedDurationMinutes}>
                <input type="number" min={1} max={720} value={v.hours} onChange={(e) => setV({ ...v, hours: Number(e.target.value) })} />
              </Field>
            </div>
            <FormError error={add.error} />
            <div className="form-actions">
              <button type="button" className="btn" onClick={() => setLine((l) => l.slice(0, -1))} disabled={!line.length}>
                {t('geofences.undo')}
              </button>
              <button type="button" className="btn" onClick={() => setDrawing(false)}>
                {t('common.cancel')}
              </button>
              <button type="submit" className="btn btn-primary" disabled={line.length < 2 || add.isPending}>
                {t('common.save')}
              </button>
            </div>
          </form>
        )}
      </div>
      <div className="stack routes-list">
        <FormError error={del.error} />
        <DataTable caption={t('routes.title')} columns={columns} rows={routes.data} rowKey={(r) => r.id} loading={routes.isPending} error={routes.error} retry={() => void routes.refetch()} empty={{ title: t('routes.empty'), hint: t('routes.emptyHint') }} />
      </div>
    </div>
  );
}
