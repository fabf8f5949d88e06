import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { FeatureCollection } from 'geojson';
import { GeofenceKind, geofencesEndpoints, type Geofence } from '@corridor/contracts/geofences';
import { endpoint } from '../api/endpoint';
import { useApiMutation, useApiQuery } from '../api/hooks';
import { Field, FormError, useFieldErrors } from '../ui/forms';
import { CorridorMap } from '../ui/map/CorridorMap';
import { FitBounds } from '../ui/map/MapView';
import { DraftShape } from '../ui/map/layers/DraftShape';
import { GeofenceShapes } from '../ui/map/layers/GeofenceShapes';
import { geometryBounds } from '../ui/map/bounds';
import { fenceFeature, wktToGeometry } from '../ui/map/wkt';
import { Empty, ErrorState, Loading } from '../ui/states';
import { draftComplete, draftFeatures, draftGeometry, type Draft, type Shape } from './geofence-draft';

const list = endpoint(geofencesEndpoints, 'geofences.list');
const create = endpoint(geofencesEndpoints, 'geofences.create');
const remove = endpoint(geofencesEndpoints, 'geofences.delete');
const SHAPES: Shape[] = ['polygon', 'circle', 'corridor'];

/** Geofences on the map: every fence drawn, and new ones drawn by clicking: a polygon, a circle, or a corridor buffer along a line. */
export default function GeofencesScreen() {
  const { t } = useTranslation();
  const q = useApiQuery(list, { query: { limit: 1000 } });
  const save = useApiMutation(create, { invalidates: ['geofences.'] });
  const del = useApiMutation(remove, { invalidates: ['geofences.'] });
  const [selected, setSelected] = useState<number | null>(null);
  // a fence just created: once the list shows it, it is scrolled into view and takes the focus
  const reveal = useRef<number | null>(null);
  const items = useRef(new Map<number, HTMLButtonElement>());
  const [draft, setDraft] = useState<Draft | null>(null);
  const [form, setForm] = useState({ name: '', kind: 'other' as GeofenceKind, country: '' });
  const fences = useMemo<FeatureCollection>(() => ({ type: 'FeatureCollection', features: (q.data ?? []).flatMap((f) => fenceFeature(f, f.id === selected) ?? []) }), [q.data, selected]);
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
  const errors = useFieldErrors(save.error);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!draft || !draftComplete(draft)) return;
    const g = draftGeometry(draft);
    const ok = await save
      .mutateAsync({
        body: {
          name: form.name.trim(), kind: form.kind, country: form.country || null, geometry: g.geometry as unknown as Record<string, unknown>,
          ...(g.radius ? { radius: g.radius } : {}), attributes: g.polylineDistance ? { polylineDistance: g.polylineDistance } : {},
        },
      })
      .then((created) => created, () => null);
    if (ok) {
      reveal.current = ok.id;
      setSelected(ok.id);
      setDraft(null);
      setForm({ name: '', kind: 'other', country: '' });
    }
  }

  return (
    <div className="screen">
      <div className="screen-head">
        <h1>{t('geofences.title')}</h1>
        {!draft && (
          <span className="toolbar" role="group" aria-label={t('geofences.draw')}>
            {SHAPES.map((s) => (
              <button key={s} type="button" className="btn" onClick={() => setDraft({ shape: s, points: [], metres: s === 'circle' ? 1000 : 500 })}>
                {t(`geofences.drawShape.${s}`)}
              </button>
            ))}
          </span>
        )}
      </div>
      <div className="two-col">
        <div className="map-box map-tall">
          <CorridorMap
            label={chosen ? t('geofences.mapLabelSelected', { count: q.data?.length ?? 0, name: chosen.name }) : t('geofences.mapLabel', { count: q.data?.length ?? 0 })} onMapClick={draft ? (p) => setDraft((d) => (d ? { ...d, points: d.shape === 'circle' ? [p] : [...d.points, p] } : d)) : undefined} >
            <GeofenceShapes data={fences} />
            <DraftShape data={draftFc} />
            <FitBounds bounds={fit} />
          </CorridorMap>
        </div>
        <div className="stack">
          {draft && (
            <form className="card" onSubmit={submit} aria-label={t('geofences.new')}>
              <h2>{t(`geofences.drawShape.${draft.shape}`)}</h2>
              <p className="small muted">{t(`geofences.howTo.${draft.shape}`)}</p>
              <p className="small">{t('geofences.points', { count: draft.points.length })}</p>
              {draft.shape !== 'polygon' && (
                <Field label={draft.shape === 'circle' ? t('geofences.radius') : t('geofences.halfWidth')} name="metres">
                  <input type="number" min={10} max={50000} value={draft.metres} onChange={(e) => setDraft({ ...draft, metres: Number(e.target.value) || 0 })} />
                </Field>
              )}
              <Field label={t('devices.name')} name="name" error={errors.name}>
                <input required maxLength={128} value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
              </Field>
              <div className="form-grid">
                <Field label={t('geofences.kind')} name="kind">
                  <select value={form.kind} onChange={(e) => setForm({ ...form, kind: e.target.value as GeofenceKind })}>
                    {GeofenceKind.options.map((k) => (
                      <option key={k} value={k}>
                        {t(`geofences.kinds.${k}`)}
                      </option>
                    ))}
                  </select>
                </Field>
                <Field label={t('geofences.country')} name="country" error={errors.country} hint={t('geofences.countryHint')}>
                  <input maxLength={2} value={form.country} onChange={(e) => setForm({ ...form, country: e.target.value.toUpperCase() })} />
                </Field>
              </div>
              <FormError error={save.error} />
              <div className="form-actions">
                <button type="button" className="btn" onClick={() => setDraft({ ...draft, points: draft.points.slice(0, -1) })} disabled={!draft.points.length}>
                  {t('geofences.undo')}
                </button>
                <button type="button" className="btn" onClick={() => setDraft(null)}>
                  {t('common.cancel')}
                </button>
                <button type="submit" className="btn btn-primary" disabled={!draftComplete(draft) || save.isPending}>
                  {t('common.save')}
                </button>
              </div>
            </form>
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
                      }} onClick={() => setSelected(f.id === selected ? null : f.id)}>
                      {f.name}
                    </button>
                    <span className="pill">{t(`geofences.kinds.${f.kind}`)}</span>
                    {f.country && <span className="muted small">{f.country}</span>}
                    <button type="button" className="btn btn-small btn-danger" onClick={() => window.confirm(t('geofences.confirmDelete', { name: f.name })) && del.mutate({ params: { id: f.id } })} aria-label={t('geofences.delete', { name: f.name })}>
                      ×
                    </button>
                  </li>
                ))}
              </ul>
            )}
            <FormError error={del.error} />
          </section>
        </div>
      </div>
    </div>
  );
}
