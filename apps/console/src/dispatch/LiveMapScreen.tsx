import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../api/hooks';
import { may } from '../session/access';
import { useUser } from '../session/useUser';
import { CorridorMap } from '../ui/map/CorridorMap';
import { MapLegend } from '../ui/map/MapLegend';
import { Empty, ErrorState, Loading } from '../ui/states';
import { FleetPanel } from './FleetPanel';
import { TruckCard } from './TruckCard';
import { filterFleet, TRUCK_STATES, truckFeatures, type TruckState } from './truck-features';
import { activeJourneys, useFlaggedDevices, useFleet } from './useFleet';

/** The dispatcher's live map: every truck coloured by state, clustered when zoomed out, with the fleet list beside it. */
export default function LiveMapScreen() {
  const { t } = useTranslation();
  const user = useUser();
  const fleet = useFleet();
  const flagged = useFlaggedDevices();
  const active = useApiQuery(activeJourneys, { query: { limit: 1000 } }, { enabled: may(user, activeJourneys) });
  const [params, setParams] = useSearchParams();
  const [search, setSearch] = useState('');
  const [states, setStates] = useState<ReadonlySet<TruckState>>(new Set());
  const selected = Number(params.get('device')) || null;

  const visible = useMemo(() => filterFleet(fleet.rows, search, states), [fleet.rows, search, states]);
  const features = useMemo(() => truckFeatures(visible, { selected, flaggedDevices: flagged }), [visible, selected, flagged]);
  const counts = useMemo(() => {
    const c = Object.fromEntries(TRUCK_STATES.map((s) => [s, 0])) as Record<TruckState, number>;
    for (const r of fleet.rows) c[r.state]++;
    return c;
  }, [fleet.rows]);
  const selectedRow = fleet.rows.find((r) => r.device.id === selected);
  const journeyOf = active.data?.find((j) => j.deviceId === selected)?.id;

  const select = useCallback((id: number | null) => setParams(id ? { device: String(id) } : {}, { replace: true }), [setParams]);
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
          <FleetPanel rows={visible} total={fleet.rows.length} counts={counts} search={search} onSearch={setSearch} states={states} onToggleState={toggle} selected={selected} onSelect={select} />
        )}
        <CorridorMap data={{ trucks: features }} label={t('map.mapLabel', { count: features.features.length })} onTruckClick={select}>
          <MapLegend />
          {selectedRow && <TruckCard row={selectedRow} journeyId={journeyOf} onClose={() => select(null)} />}
        </CorridorMap>
      </div>
    </div>
  );
}
