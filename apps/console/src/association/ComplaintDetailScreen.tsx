import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ComplaintStatus } from '@corridor/contracts/complaints';
import { useApiMutation, useApiQuery } from '../api/hooks';
import { useFormat } from '../i18n/format';
import { may } from '../session/access';
import { useUser } from '../session/useUser';
import { useCompanies } from '../ui/lookups';
import { NoteDialog } from '../ui/NoteDialog';
import { ErrorState, Loading } from '../ui/states';
import { StatusHistory } from '../ui/StatusHistory';
import { StatusPill } from '../ui/StatusPill';
import { complaintEndpoints } from './association';
import { useNoticeWord } from '../i18n/notice-words';

const NOTE_REQUIRED: readonly ComplaintStatus[] = ['resolved', 'dismissed', 'open'];

/** One complaint through its workflow: the moves the server allows now, each with its note, and the history. */
export default function ComplaintDetailScreen() {
  const { t } = useTranslation();
  const word = useNoticeWord();
  const f = useFormat();
  const user = useUser();
  const id = Number(useParams().id);
  const q = useApiQuery(complaintEndpoints.get, { params: { id } });
  const move = useApiMutation(complaintEndpoints.setStatus, { invalidates: ['complaints.'] });
  const companies = useCompanies();
  const [asking, setAsking] = useState<ComplaintStatus | null>(null);
  if (q.isPending) return <Loading />;
  if (q.error || !q.data) return <ErrorState error={q.error} retry={() => void q.refetch()} />;
  const c = q.data;
  const canMove = may(user, complaintEndpoints.setStatus);
  return (
    <div className="screen">
      <p className="small">
        <Link to="/complaints">← {t('complaints.title')}</Link>
      </p>
      <div className="screen-head">
        <h1>{c.title}</h1>
        <StatusPill value={c.status} label={word('complaintStatus', c.status)} />
      </div>
      {canMove && (
        <section className="card toolbar" aria-label={t('shipments.moves')}>
          {c.allowedNextStatuses.map((s) => (
            <button key={s} type="button" className={s === 'dismissed' ? 'btn btn-danger' : 'btn'} onClick={() => setAsking(s)}>
              {t(`complaints.moveTo.${s}`)}
            </button>
          ))}
          {c.allowedNextStatuses.length === 0 && <span className="muted">{t('shipments.noMoves')}</span>}
          {c.reopenUntil && <span className="muted small">{t('complaints.reopenUntil', { time: f.dateTime(c.reopenUntil) })}</span>}
        </section>
      )}
      <div className="two-col mt">
        <section className="card stack">
          <dl className="facts">
            <dt>{t('complaints.against')}</dt>
            <dd>
              {companies.name(c.companyId)} · {t(`complaints.subject.${c.subjectType}`)} {c.subjectRef}
            </dd>
            <dt>{t('complaints.category')}</dt>
            <dd>{word('categories', c.category)}</dd>
            <dt>{t('complaints.occurred')}</dt>
            <dd>{f.dateTime(c.occurredAt)}</dd>
            {c.journeyId && (
              <>
                <dt>{t('journeys.journey')}</dt>
                <dd>{c.journeyId}</dd>
              </>
            )}
            <dt>{t('complaints.filedBy')}</dt>
            <dd>
              {c.filedBy.email} · {f.dateTime(c.createdAt)}
            </dd>
            {c.resolution && (
              <>
                <dt>{t('complaints.resolution')}</dt>
                <dd>{c.resolution}</dd>
              </>
            )}
          </dl>
          <p>{c.description}</p>
        </section>
        <StatusHistory
          id="complaint-history"
          history={c.history.map((h) => ({ ...h, by: { email: h.actorEmail }, reason: h.note }))}
          word={(s) => word('complaintStatus', s)}
        />
      </div>
      <NoteDialog
        open={asking !== null}
        title={asking ? t(`complaints.moveTo.${asking}`) : ''}
        noteLabel={t('journey.note')}
        noteRequired={asking !== null && NOTE_REQUIRED.includes(asking)}
        confirm={asking ? t(`complaints.moveTo.${asking}`) : ''}
        danger={asking === 'dismissed'}
        onClose={() => setAsking(null)}
        onConfirm={(note) => move.mutateAsync({ params: { id }, body: { status: asking!, ...(note ? { note } : {}) } })}
      />
    </div>
  );
}
