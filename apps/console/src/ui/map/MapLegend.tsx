import { useTranslation } from 'react-i18next';
import { TRUCK_STATES } from '../../dispatch/truck-features';

/** What the truck colours mean. */
export function MapLegend() {
  const { t } = useTranslation();
  return (
    <ul className="map-legend" aria-label={t('map.legend')}>
      {TRUCK_STATES.map((s) => (
        <li key={s}>
          <span className={`dot dot-${s}`} aria-hidden="true" /> {t(`truckState.${s}`)}
        </li>
      ))}
      <li>
        <span className="dot dot-flagged" aria-hidden="true" /> {t('map.flagged')}
      </li>
    </ul>
  );
}
