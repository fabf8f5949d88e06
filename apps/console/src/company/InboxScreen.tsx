import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Notification } from '@corridor/contracts/notifications';
import { noticeText } from '@corridor/contracts/notice-text';
import { useApiMutation, useApiQuery } from '../api/hooks';
import { useFormat } from '../i18n/format';
import { Empty, ErrorState, Loading } from '../ui/states';
import { Pager } from '../ui/DataTable';
import { inbox, markRead } from './inbox';

const LIMIT = 20;

/** Where a notification's subject opens in the console. */
function linkOf(n: Notification): string | null {
  switch (n.entityType) {
    case 'single_use_certificate':
      return `/certificates?open=${n.entityId}`;
    case 'complaint':
      return `/complaints/${n.entityId}`;
    default:
      return null;
  }
}

/** The user's notifications, newest first: unread ones stand out and are marked read when opened. */
export default function InboxScreen() {
  const { t, i18n } = useTranslation();
  const f = useFormat();
  const [unreadOnly, setUnreadOnly] = useState(false);
  const [offset, setOffset] = useState(0);
  const q = useApiQuery(inbox, { query: { limit: LIMIT, offset, unread: unreadOnly ? 'true' : undefined } }, { refetchInterval: 30_000 });
  const read = useApiMutation(markRead, { invalidates: ['inbox.'] });
  return (
    <div className="screen">
      <div className="screen-head">
        <h1>{t('inboxScreen.title')}</h1>
        {q.data && <span className="muted">{t('inboxScreen.unread', { count: q.data.unreadCount })}</span>}
        <Link to="/account/notifications" className="btn btn-small">
          {t('noticeSettings.title')}
        </Link>
      </div>
      <label className="row mt-s">
        <input type="checkbox" checked={unreadOnly} onChange={(e) => (setOffset(0), setUnreadOnly(e.target.checked))} />{' '}
        {t('inboxScreen.unreadOnly')}
      </label>
      {q.isPending ? (
        <Loading />
      ) : q.error || !q.data ? (
        <ErrorState error={q.error} retry={() => void q.refetch()} />
      ) : q.data.items.length === 0 ? (
        <Empty title={unreadOnly ? t('inboxScreen.allRead') : t('inboxScreen.empty')} hint={t('inboxScreen.emptyHint')} />
      ) : (
        <ul className="inbox mt" aria-label={t('inboxScreen.title')}>
          {q.data.items.map((n) => {
            const to = linkOf(n);
            const { title, message } = noticeText(n, i18n.resolvedLanguage ?? i18n.language); // the wording shared with mail and webhook (contracts notice-text)
            const open = () => {
              if (!n.readAt) read.mutate({ params: { id: n.id } });
            };
            return (
              <li key={n.id} className={n.readAt ? 'read' : 'unread'} data-testid="notification">
                <div className="row">
                  {!n.readAt && <span className="badge">{t('inboxScreen.new')}</span>}
                  <strong className="grow">
                    {to ? (
                      <Link to={to} onClick={open}>
                        {title}
                      </Link>
                    ) : (
                      title
                    )}
                  </strong>
                  <span className="muted small">{f.dateTime(n.createdAt)}</span>
                </div>
                <p>{message}</p>
                {!n.readAt && (
                  <button type="button" className="btn btn-small" onClick={open}>
                    {t('inboxScreen.markRead')}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <Pager offset={offset} limit={LIMIT} total={q.data?.total} count={q.data?.items.length ?? 0} onChange={setOffset} />
    </div>
  );
}
