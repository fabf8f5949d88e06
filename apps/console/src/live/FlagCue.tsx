import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { journeysEndpoints } from '@corridor/contracts/journeys';
import { endpoint } from '../api/endpoint';
import { may } from '../session/access';
import { useUser } from '../session/useUser';
import { useLiveState } from './LiveFeedProvider';
import { useNewFlags } from './queries';

const flagged = endpoint(journeysEndpoints, 'journeys.flagged');

/** The live cue in the top bar: connection state and the flags opened since the flagged tab was last seen. */
export function FlagCue() {
  const { t } = useTranslation();
  const user = useUser();
  const state = useLiveState();
  const { data: fresh } = useNewFlags();
  const count = fresh.length;
  return (
    <>
      <span className={`live live-${state}`} title={t(`live.${state}`)}>
        <span aria-hidden="true">●</span>
        <span className="live-label">{t(`live.${state}`)}</span>
      </span>
      {may(user, flagged) && (
        <span aria-live="polite">
          {count > 0 && (
            <Link to="/journeys?tab=flagged" className="flag-cue" data-testid="flag-cue">
              {t('live.newFlags', { count })}
            </Link>
          )}
        </span>
      )}
    </>
  );
}
