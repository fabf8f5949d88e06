import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FeatureCollection } from 'geojson';
import { routesEndpoints, type Route } from '@corridor/contracts/routes';
import { endpoint } from '../api/endpoint';
import { useApiMutation } from '../api/hooks';
import { useFormat } from '../i18n/format';
import { DataTable, type Column } from '../ui/DataTable';
import { FormError } from '../ui/forms';
import { RowActions } from '../ui/list/RowActions';
import { useRoutes } from '../ui/lookups';
import { CorridorMap } from '../ui/map/CorridorMap';
import { DraftHandles } from '../ui/map/layers/DraftHandles';
import { PlannedRoute } from '../ui/map/layers/PlannedRoute';
import { bandWidth } from '../ui/map/scale';
import { RouteForm } from './RouteForm';

const remove = endpoint(routesEndpoints, 'routes.delete');
/** A line with more points than this is edited by its fields only: a handle per point would bury the map. */
const MOST_HANDLES = 200;

function routeFeatures(line: [number, number][], widthM: number): FeatureCollection {
  if (line.length < 2)
    return {
      type: 'FeatureCollection',
      features: line.map((p) => ({ type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: p } })),
    };
  return {
    type: 'FeatureCollection',
    features: [
      {
        type: 'Feature',
        properties: { kind: 'corridor', ...bandWidth(widthM, line[0]![1]) },
        geometry: { type: 'LineString', coordinates: line },
      },
    ],
  };
}

/**
 * Corridor routes: each with its line and allowed width on the map; a new one drawn by clicking
 * along the road; one edited (its fields, and its line by dragging its points when it has few
 * enough); a delete asks first.
 */
export default function RoutesScreen() {
  const { t } = useTranslation();
  const f = useFormat();
  const routes = useRoutes();
  const del = useApiMutation(remove, { invalidates: ['routes.'] });
  const [selected, setSelected] = useState<number | null>(null);
  // the form open: a new route (null) or one being edited
  const [editing, setEditing] = useState<Route | null | undefined>(undefined);
  // the line drawn or being moved; null: an edited route's line kept as stored
  const [line, setLine] = useState<[number, number][] | null>(null);
  const route = selected ? routes.byId.get(selected) : undefined;
  const open = editing !== undefined;
  const planned = useMemo(() => {
    if (line) return routeFeatures(line, editing?.widthM ?? 2000);
    const shown = editing ?? route;
    return shown ? routeFeatures((shown.line ?? shown.legs?.flat() ?? []) as [number, number][], shown.widthM) : null;
  }, [line, editing, route]);
  const close = () => {
    setEditing(undefined);
    setLine(null);
  };
  const edit = (r: Route) => {
    setSelected(r.id);
    setEditing(r);
    setLine(r.line && r.line.length <= MOST_HANDLES ? (r.line as [number, number][]) : null);
  };
  const columns: Column<Route>[] = [
    {
      key: 'name',
      header: t('devices.name'),
      cell: (r) => (
        <button type="button" className="link-button" aria-pressed={r.id === selected} onClick={() => setSelected(r.id)} disabled={open}>
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
        <RowActions
          editLabel={t('routes.editTitle', { name: r.name })}
          onEdit={() => edit(r)}
          disabled={open}
          deleteLabel={t('resources.deleteOne', { name: r.name })}
          confirm={t('routes.confirmDelete', { name: r.name })}
          onDelete={() => del.mutate({ params: { id: r.id } })}
        />
      ),
    },
  ];
  return (
    <div className="screen">
      <div className="screen-head">
        <h1>{t('routes.title')}</h1>
        {!open && (
          <button type="button" className="btn btn-primary" onClick={() => (setSelected(null), setLine([]), setEditing(null))}>
            {t('routes.draw')}
          </button>
        )}
      </div>
      {/* the map and, while drawing or editing, the form beside it; the list below at full width (its names on one line) */}
      <div className={open ? 'two-col' : undefined}>
        <div className={open ? 'map-box map-tall' : 'map-box'}>
          <CorridorMap
            label={t('routes.mapLabel')}
            onMapClick={open && editing === null ? (p) => setLine((l) => [...(l ?? []), p]) : undefined}
          >
            <PlannedRoute data={planned} />
            {open && line && (
              <DraftHandles
                points={line}
                label={(i) => t('routes.point', { n: i + 1, count: line.length })}
                onMove={(i, at) => setLine((l) => l && l.map((p, j) => (j === i ? at : p)))}
              />
            )}
          </CorridorMap>
        </div>
        {open && (
          <RouteForm
            key={editing?.id ?? 'new'}
            route={editing}
            line={line}
            onCancel={close}
            onUndo={editing === null ? () => setLine((l) => (l ?? []).slice(0, -1)) : undefined}
            onSaved={(r) => {
              close();
              setSelected(r.id);
            }}
          />
        )}
      </div>
      <div className="stack routes-list">
        <FormError error={del.error} />
        <DataTable
          caption={t('routes.title')}
          columns={columns}
          rows={routes.data}
          rowKey={(r) => r.id}
          loading={routes.isPending}
          error={routes.error}
          retry={() => void routes.refetch()}
          empty={{ title: t('routes.empty'), hint: t('routes.emptyHint') }}
        />
      </div>
    </div>
  );
}
