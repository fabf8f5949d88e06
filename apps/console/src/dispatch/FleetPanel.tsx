import { memo } from 'react';
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
        {t('map.showing', { shown: rows.length, count: total })}
      </p>
      <ul className="fleet-list">
        {rows.map((r) => (
          <FleetItem
            key={r.device.id}
            id={r.device.id}
            name={r.device.name}
            state={r.state}
            knots={r.position?.speed}
            quietMinutes={
              r.position && (r.quiet || r.state === 'offline' || r.state === 'unknown')
                ? Math.max(1, Math.round((Date.now() - Date.parse(r.position.fixTime)) / 60_000))
                : undefined
            }
            selected={r.device.id === selected}
            onSelect={onSelect}
          />
        ))}
      </ul>
    </aside>
  );
}

interface ItemProps {
  id: number;
  name: string;
  state: TruckState;
  /** Speed of the latest fix; undefined without one. */
  knots: number | undefined;
  /** Minutes since the latest fix, when it is too old for its speed to mean anything now. */
  quietMinutes: number | undefined;
  selected: boolean;
  onSelect(id: number): void;
}

/**
 * One truck of the list. Memoised on the raw values it shows, and formatting them itself: a socket
 * frame formats and re-renders only the trucks whose state or speed changed, not the whole fleet
 * (2,000 rows; formatting every row's speed and label per frame was the live map's top cost).
 */
const FleetItem = memo(function FleetItem({ id, name, state, knots, quietMinutes, selected, onSelect }: ItemProps) {
  const { t } = useTranslation();
  const f = useFormat();
  const stateLabel = t(`truckState.${state}`);
  const speed =
    knots === undefined
      ? t('map.noPosition')
      : quietMinutes !== undefined
        ? t('map.quietFor', { count: quietMinutes })
        : f.speedKnots(knots);
  return (
    <li>
      <button
        type="button"
        className={selected ? 'fleet-item selected' : 'fleet-item'}
        aria-current={selected}
        onClick={() => onSelect(id)}
        data-testid={`truck-${id}`}
      >
        <span className={`dot dot-${state}`} aria-hidden="true" />
        <span className="fleet-name">{name}</span>
        <span className="fleet-meta">
          <span className="sr-only">{stateLabel}, </span>
          {speed}
        </span>
      </button>
    </li>
  );
});
