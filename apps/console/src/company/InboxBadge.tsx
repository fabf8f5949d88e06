import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../api/hooks';
import { inbox } from './inbox';

/** The unread count in the top bar, refreshed every 30 s and whenever the inbox changes. */
export function InboxBadge() {
  const { t } = useTranslation();
  const q = useApiQuery(inbox, { query: { limit: 1, unread: 'true' } }, { refetchInterval: 30_000 });
  const unread = q.data?.unreadCount ?? 0;
  return (
    <Link to="/inbox" className="inbox-badge" aria-label={t('inbox.unreadLabel', { count: unread })}>
      <span aria-hidden="true">✉</span>
      {unread > 0 && (
        <span className="badge" data-testid="unread-count">
          {unread}
        </span>
      )}
    </Link>
  );
}
