import { useTranslation } from 'react-i18next';
import { useFormat } from '../i18n/format';
import { TRUCK_STATES, type FleetRow, type TruckState } from './truck-features';

interface Props {
  rows: FleetRow[];
  total: number;
  counts: Record<TruckState, number>;
  search: string;
  onSearch(s: string): void;
  states: ReadonlySet<TruckState>;
  onToggleState(s: TruckState): void;
  selected: number | null;
  onSelect(id: number): void;
}

/** The list beside the live map: search, state filters with counts, one button per truck. */
export function FleetPanel({ rows, total, counts, search, onSearch, states, onToggleState, selected, onSelect }: Props) {
  const { t } = useTranslation();
  const f = useFormat();
  return (
    <aside className="panel fleet-panel" aria-label={t('map.fleet')}>
      <label className="field">
        <span className="sr-only">{t('map.search')}</span>
        <input type="search" placeholder={t('map.search')} value={search} onChange={(e) => onSearch(e.target.value)} />
      </label>
      <div className="chips" role="group" aria-label={t('map.filterByState')}>
        {TRUCK_STATES.map((s) => (
          <button key={s} type="button" className={`chip chip-${s}`} aria-pressed={states.has(s)} onClick={() => onToggleState(s)}>
            <span className={`dot dot-${s}`} aria-hidden="true" />
            {t(`truckState.${s}`)} <span className="chip-count">{counts[s]}</span>
          </button>
        ))}
      </div>
      <p className="muted small" aria-live="polite">
        {t('map.showing', { count: rows.length, total })}
      </p>
      <ul className="fleet-list">
        {rows.map((r) => (
          <li key={r.device.id}>
            <button type="button" className={r.device.id === selected ? 'fleet-item selected' : 'fleet-item'} aria-current={r.device.id === selected} onClick={() => onSelect(r.device.id)} data-testid={`truck-${r.device.id}`}>
              <span className={`dot dot-${r.state}`} aria-hidden="true" />
              <span className="fleet-name">{r.device.name}</span>
              <span className="fleet-meta">
                <span className="sr-only">{t(`truckState.${r.state}`)}, </span>
                {r.position ? f.speedKnots(r.position.speed) : t('map.noPosition')}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </aside>
  );
}
