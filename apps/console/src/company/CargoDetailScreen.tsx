import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import type { CargoStatus } from '@corridor/contracts/cargo';
import { allowedCargoMoves } from '@corridor/contracts/cargo-transitions';
import { call } from '../api/client';
import { useApiMutation, useApiQuery } from '../api/hooks';
import { useFormat } from '../i18n/format';
import { may } from '../session/access';
import { useUser } from '../session/useUser';
import { DocumentsPanel } from '../ui/documents/DocumentsPanel';
import { FormError } from '../ui/forms';
import { useCompanies } from '../ui/lookups';
import { NoteDialog } from '../ui/NoteDialog';
import { ErrorState, Loading } from '../ui/states';
import { StatusHistory } from '../ui/StatusHistory';
import { StatusPill } from '../ui/StatusPill';
import { cargoEndpoints } from './cargo';
import { certificateEndpoints } from './certificates';
import { ExtractionReview } from './ExtractionReview';

const NEEDS_REASON: readonly CargoStatus[] = ['rejected', 'cancelled'];

/**
 * One cargo: the fields read from its IDF beside their checks, its moves (validating it finalizes
 * the IDF; the server refuses while a check fails), documents, history, and a certificate
 * application once it is validated.
 */
export default function CargoDetailScreen() {
  const { t } = useTranslation();
  const f = useFormat();
  const user = useUser();
  const client = useQueryClient();
  const cargoId = Number(useParams().id);
  const q = useApiQuery(cargoEndpoints.get, { params: { cargoId } });
  const companies = useCompanies();
  const move = useApiMutation(cargoEndpoints.changeStatus, { invalidates: ['cargo.'] });
  const fix = useApiMutation(cargoEndpoints.correct, { invalidates: ['cargo.'] });
  const apply = useApiMutation(certificateEndpoints.apply, { invalidates: ['certificates.', 'cargo.'] });
  const certs = useApiQuery(certificateEndpoints.list, { query: { cargoId, limit: 10 } });
  const [asking, setAsking] = useState<CargoStatus | null>(null);
  if (q.isPending) return <Loading />;
  if (q.error || !q.data) return <ErrorState error={q.error} retry={() => void q.refetch()} />;
  const c = q.data;
  // the cargo transitions table of packages/contracts, the one ops-api enforces
  const moves = may(user, cargoEndpoints.changeStatus) ? allowedCargoMoves(c.status, user.roles) : [];
  const upload = async (form: FormData) => {
    await call(cargoEndpoints.attach, { params: { cargoId }, body: form as never }); // multipart: upload and attach in one step
    await client.invalidateQueries({ queryKey: [cargoEndpoints.get.id] });
  };
  const certificate = certs.data?.items.find((x) => x.status !== 'rejected');
  const canApply = c.status === 'validated' && may(user, certificateEndpoints.apply) && certs.data && !certificate;
  const go = (status: CargoStatus, reason: string | null) => move.mutateAsync({ params: { cargoId }, body: { status, reason } });
  return (
    <div className="screen">
      <p className="small">
        <Link to={user.companyId === null ? '/oversight/cargo' : '/cargo'}>← {t('cargo.title')}</Link>
      </p>
      <div className="screen-head">
        <h1>
          {t('cargo.cargo')} {c.idfNumber}
        </h1>
        <StatusPill value={c.status} />
      </div>
      <section className="card stack" aria-label={t('shipments.moves')}>
        <div className="toolbar">
          {moves.map((s) => (
            <button
              key={s}
              type="button"
              className={s === 'cancelled' || s === 'rejected' ? 'btn btn-danger' : s === 'validated' ? 'btn btn-primary' : 'btn'}
              // the server refuses to validate while a check fails: the hint below says what to do first
              disabled={move.isPending || (s === 'validated' && !c.extraction.valid)}
              aria-describedby={s === 'validated' && !c.extraction.valid ? 'correct-first' : undefined}
              onClick={() => (NEEDS_REASON.includes(s) ? setAsking(s) : void go(s, null).catch(() => undefined))}
            >
              {t(`cargo.moveTo.${s}`)}
            </button>
          ))}
          {canApply && (
            <button
              type="button"
              className="btn btn-primary"
              disabled={apply.isPending}
              onClick={() => void apply.mutateAsync({ body: { cargoId } }).catch(() => undefined)}
            >
              {t('certificates.apply')}
            </button>
          )}
          {certificate && (
            <Link to={`/certificates?open=${certificate.id}`}>
              {t('certificates.certificate')} {certificate.number} · {t(`status.${certificate.status}`)}
            </Link>
          )}
          {moves.length === 0 && !canApply && !certificate && <span className="muted">{t('shipments.noMoves')}</span>}
        </div>
        {!c.extraction.valid && moves.includes('validated') && (
          <p className="small muted" id="correct-first">
            {t('cargo.correctFirst')}
          </p>
        )}
        <FormError error={move.error ?? apply.error} />
      </section>
      <div className="two-col mt">
        <ExtractionReview
          extraction={c.extraction}
          correct={
            c.status === 'submitted' && may(user, cargoEndpoints.correct)
              ? (body) => fix.mutateAsync({ params: { cargoId }, body })
              : undefined
          }
        />
        <div className="stack">
          <dl className="facts card">
            <dt>{t('journeys.company')}</dt>
            <dd>{companies.name(c.companyId)}</dd>
            <dt>{t('cargo.importer')}</dt>
            <dd>
              {c.importer.name} {c.importer.pin && <span className="mono">({c.importer.pin})</span>}
            </dd>
            <dt>{t('cargo.created')}</dt>
            <dd>
              {f.dateTime(c.createdAt)} · {c.createdBy.email}
            </dd>
          </dl>
          <DocumentsPanel
            documents={c.documents}
            onUpload={may(user, cargoEndpoints.attach) ? upload : undefined}
            kinds={['idf', 'commercial_invoice', 'packing_list', 'customs_entry', 'permit', 'other']}
          />
          <StatusHistory id="cargo-history" history={c.statusHistory} />
        </div>
      </div>
      <NoteDialog
        open={asking !== null}
        title={asking ? t(`cargo.moveTo.${asking}`) : ''}
        noteLabel={t('shipments.reason')}
        noteRequired
        confirm={asking ? t(`cargo.moveTo.${asking}`) : ''}
        danger
        onClose={() => setAsking(null)}
        onConfirm={(reason) => go(asking!, reason)}
      />
    </div>
  );
}
