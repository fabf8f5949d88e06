import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FeatureCollection } from 'geojson';
import { geofencesEndpoints, type Geofence } from '@corridor/contracts/geofences';
import { endpoint } from '../api/endpoint';
import { useApiMutation, useApiQuery } from '../api/hooks';
import { FormError } from '../ui/forms';
import { CorridorMap } from '../ui/map/CorridorMap';
import { FitBounds } from '../ui/map/MapView';
import { DraftHandles } from '../ui/map/layers/DraftHandles';
import { DraftShape } from '../ui/map/layers/DraftShape';
import { GeofenceShapes } from '../ui/map/layers/GeofenceShapes';
import { geometryBounds } from '../ui/map/bounds';
import { fenceFeature, wktToGeometry } from '../ui/map/wkt';
import { Empty, ErrorState, Loading } from '../ui/states';
import { draftFeatures, draftFromFence, moveCorner, type Draft, type Shape } from './geofence-draft';
import { GeofenceForm } from './GeofenceForm';
import { GeofenceAppliesTo } from './GeofenceLinks';

const list = endpoint(geofencesEndpoints, 'geofences.list');
const remove = endpoint(geofencesEndpoints, 'geofences.delete');
const SHAPES: Shape[] = ['polygon', 'circle', 'corridor'];

/**
 * Geofences on the map: every fence drawn, new ones drawn by clicking (a polygon, a circle, or a
 * corridor buffer along a line), and any one edited: its name, kind, country and calendar, and its
 * shape by dragging its corners (or moving them with the arrow keys). A delete asks first. The
 * selected fence says which trucks it applies to, and its trucks and groups are linked there.
 */
export default function GeofencesScreen() {
  const { t } = useTranslation();
  const q = useApiQuery(list, { query: { limit: 1000 } });
  const del = useApiMutation(remove, { invalidates: ['geofences.'] });
  const [selected, setSelected] = useState<number | null>(null);
  // a fence just created: once the list shows it, it is scrolled into view and takes the focus
  const reveal = useRef<number | null>(null);
  const items = useRef(new Map<number, HTMLButtonElement>());
  const [draft, setDraft] = useState<Draft | null>(null);
  const [editing, setEditing] = useState<Geofence | null>(null);
  // the fence being reshaped is drawn by its draft, not as stored
  const reshaped = editing && draft ? editing.id : null;
  const fences = useMemo<FeatureCollection>(
    () => ({
      type: 'FeatureCollection',
      features: (q.data ?? []).flatMap((f) => (f.id === reshaped ? [] : (fenceFeature(f, f.id === selected) ?? []))),
    }),
    [q.data, selected, reshaped],
  );
  const draftFc = useMemo(() => (draft ? draftFeatures(draft) : null), [draft]);
  const chosen = q.data?.find((f) => f.id === selected);
  // the map shows the selected fence whole
  const fit = useMemo(() => {
    const g = chosen ? wktToGeometry(chosen.area) : null;
    return g ? geometryBounds(g.geometry) : null;
  }, [chosen?.id, chosen?.area]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    const button = reveal.current === null ? undefined : items.current.get(reveal.current);
    if (!button) return;
    reveal.current = null;
    (button.closest('li') ?? button).scrollIntoView({ block: 'nearest' });
    button.focus({ preventScroll: true });
  }, [q.data, selected]);

  function saved(g: Geofence) {
    reveal.current = g.id;
    setSelected(g.id);
    setDraft(null);
    setEditing(null);
  }
  function edit(f: Geofence) {
    setSelected(f.id);
    setEditing(f);
    setDraft(draftFromFence(f));
  }
  const drawing = draft !== null || editing !== null;

  return (
    <div className="screen">
      <div className="screen-head">
        <h1>{t('geofences.title')}</h1>
        {!drawing && (
          <span className="toolbar" role="group" aria-label={t('geofences.draw')}>
            {SHAPES.map((s) => (
              <button
                key={s}
                type="button"
                className="btn"
                onClick={() => setDraft({ shape: s, points: [], metres: s === 'circle' ? 1000 : 500 })}
              >
                {t(`geofences.drawShape.${s}`)}
              </button>
            ))}
          </span>
        )}
      </div>
      <div className="two-col">
        <div className="map-box map-tall">
          <CorridorMap
            label={
              chosen
                ? t('geofences.mapLabelSelected', { count: q.data?.length ?? 0, name: chosen.name })
                : t('geofences.mapLabel', { count: q.data?.length ?? 0 })
            }
            onMapClick={
              draft && !editing
                ? (p) => setDraft((d) => (d ? { ...d, points: d.shape === 'circle' ? [p] : [...d.points, p] } : d))
                : undefined
            }
          >
            <GeofenceShapes data={fences} />
            <DraftShape data={draftFc} />
            {draft && (
              <DraftHandles
                points={draft.points}
                label={(i) => t('geofences.corner', { n: i + 1, count: draft.points.length })}
                onMove={(i, at) => setDraft((d) => (d ? moveCorner(d, i, at) : d))}
              />
            )}
            <FitBounds bounds={fit} />
          </CorridorMap>
        </div>
        <div className="stack">
          {drawing && (
            <GeofenceForm
              key={editing?.id ?? 'new'}
              fence={editing}
              draft={draft}
              onDraft={setDraft}
              onSaved={saved}
              onCancel={() => {
                setDraft(null);
                setEditing(null);
              }}
            />
          )}
          <section className="card" aria-labelledby="fence-list">
            <h2 id="fence-list">{t('geofences.list')}</h2>
            {q.isPending ? (
              <Loading />
            ) : q.error ? (
              <ErrorState error={q.error} retry={() => void q.refetch()} />
            ) : !q.data?.length ? (
              <Empty title={t('geofences.empty')} hint={t('geofences.emptyHint')} />
            ) : (
              <ul className="plain-list fence-list">
                {q.data.map((f: Geofence) => (
                  <li key={f.id} className="row">
                    <button
                      type="button"
                      className="link-button grow"
                      aria-pressed={f.id === selected}
                      ref={(el) => {
                        if (el) items.current.set(f.id, el);
                        else items.current.delete(f.id);
                      }}
                      onClick={() => setSelected(f.id === selected ? null : f.id)}
                    >
                      {f.name}
                    </button>
                    <span className="pill">{t(`geofences.kinds.${f.kind}`)}</span>
                    {f.country && <span className="muted small">{f.country}</span>}
                    <button
                      type="button"
                      className="btn btn-small"
                      onClick={() => edit(f)}
                      disabled={drawing}
                      aria-label={t('geofences.edit', { name: f.name })}
                    >
                      {t('common.edit')}
                    </button>
                    <button
                      type="button"
                      className="btn btn-small btn-danger"
                      onClick={() => window.confirm(t('geofences.confirmDelete', { name: f.name })) && del.mutate({ params: { id: f.id } })}
                      aria-label={t('geofences.delete', { name: f.name })}
                    >
                      ×
                    </button>
                  </li>
                ))}
              </ul>
            )}
            <FormError error={del.error} />
          </section>
          {chosen && !drawing && <GeofenceAppliesTo key={chosen.id} fence={chosen} />}
        </div>
      </div>
    </div>
  );
}
