import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../api/hooks';
import { may } from '../session/access';
import { useUser } from '../session/useUser';
import { CorridorMap } from '../ui/map/CorridorMap';
import { CentreOn } from '../ui/map/MapView';
import { MapLegend } from '../ui/map/MapLegend';
import { PlacePin } from '../ui/map/layers/PlacePin';
import { TruckMarkers } from '../ui/map/layers/TruckMarkers';
import { Empty, ErrorState, Loading } from '../ui/states';
import { FleetPanel } from './FleetPanel';
import { TruckCard } from './TruckCard';
import { filterFleet, TRUCK_STATES, truckFeatures, type TruckState } from './truck-features';
import { activeJourneys, useFlaggedDevices, useFleet } from './useFleet';

/** Zoom at which a truck chosen from the list is shown (its neighbours apart, its road in view). */
const SELECT_ZOOM = 9;

/**
 * The dispatcher's live map: every truck coloured by state, clustered when zoomed out, with the
 * fleet list beside it. Choosing a truck centres the map on it; following keeps it centred as it
 * reports, until the dispatcher moves the map.
 */
export default function LiveMapScreen() {
  const { t } = useTranslation();
  const user = useUser();
  const fleet = useFleet();
  const flagged = useFlaggedDevices();
  const active = useApiQuery(activeJourneys, { query: { limit: 1000 } }, { enabled: may(user, activeJourneys) });
  const [params, setParams] = useSearchParams();
  const [search, setSearch] = useState('');
  const [states, setStates] = useState<ReadonlySet<TruckState>>(new Set());
  const [follow, setFollow] = useState(false);
  const selected = Number(params.get('device')) || null;
  // a place to show (an alert's): ?at=<latitude>,<longitude>
  const at = placeOf(params.get('at'));
  // each choice from the list (or the truck named in the address) centres the map once; a truck clicked on the map is in view already
  const [aim, setAim] = useState<{ id: number; seq: number } | null>(() => (selected ? { id: selected, seq: 0 } : null));

  const visible = useMemo(() => filterFleet(fleet.rows, search, states), [fleet.rows, search, states]);
  const features = useMemo(() => truckFeatures(visible, { selected, flaggedDevices: flagged }), [visible, selected, flagged]);
  const counts = useMemo(() => {
    const c = Object.fromEntries(TRUCK_STATES.map((s) => [s, 0])) as Record<TruckState, number>;
    for (const r of fleet.rows) c[r.state]++;
    return c;
  }, [fleet.rows]);
  const selectedRow = fleet.rows.find((r) => r.device.id === selected);
  const journeyOf = active.data?.find((j) => j.deviceId === selected)?.id;
  const here: [number, number] | null = selectedRow?.position ? [selectedRow.position.longitude, selectedRow.position.latitude] : null;
  const aimKey = aim && aim.id === selected && here ? `${aim.id}:${aim.seq}` : null;

  const select = useCallback(
    (id: number | null, from: 'list' | 'map' = 'list') => {
      setParams(id ? { device: String(id) } : {}, { replace: true }); // choosing a truck forgets a marked place
      setAim((a) => (id && from === 'list' ? { id, seq: (a?.seq ?? 0) + 1 } : null));
      if (!id) setFollow(false);
    },
    [setParams],
  );
  const toggle = (s: TruckState) =>
    setStates((cur) => {
      const next = new Set(cur);
      if (next.has(s)) next.delete(s);
      else next.add(s);
      return next;
    });

  return (
    <div className="screen screen-map">
      <h1 className="sr-only">{t('map.title')}</h1>
      <div className="map-layout">
        {fleet.isPending ? (
          <aside className="panel fleet-panel">
            <Loading />
          </aside>
        ) : fleet.error ? (
          <aside className="panel fleet-panel">
            <ErrorState error={fleet.error} retry={fleet.refetch} />
          </aside>
        ) : fleet.rows.length === 0 ? (
          <aside className="panel fleet-panel">
            <Empty title={t('map.noTrucks')} hint={t('map.noTrucksHint')} />
          </aside>
        ) : (
          <FleetPanel
            rows={visible}
            total={fleet.rows.length}
            counts={counts}
            search={search}
            onSearch={setSearch}
            states={states}
            onToggleState={toggle}
            selected={selected}
            onSelect={select}
          />
        )}
        <CorridorMap label={t('map.mapLabel', { count: features.features.length })}>
          <TruckMarkers data={features} onSelect={(id) => select(id, 'map')} />
          {at ? (
            <>
              <PlacePin at={at} />
              <CentreOn at={at} target={`at:${at.join(',')}`} zoom={SELECT_ZOOM + 2} />
            </>
          ) : (
            <CentreOn at={here} target={aimKey} follow={follow} zoom={SELECT_ZOOM} onUserMove={() => setFollow(false)} />
          )}
          <MapLegend />
          {selectedRow && (
            <TruckCard row={selectedRow} journeyId={journeyOf} follow={follow} onFollow={setFollow} onClose={() => select(null)} />
          )}
        </CorridorMap>
      </div>
    </div>
  );
}

/** "-3.4,38.5" → [lon, lat]; anything else → null. */
function placeOf(value: string | null): [number, number] | null {
  const [lat, lon] = (value ?? '').split(',').map(Number);
  return value && Number.isFinite(lat) && Number.isFinite(lon) && Math.abs(lat!) <= 90 && Math.abs(lon!) <= 180 ? [lon!, lat!] : null;
}
