import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CargoStatus } from '@corridor/contracts/cargo';
import { CertificateStatus } from '@corridor/contracts/certificates';
import { DocumentKind } from '@corridor/contracts/documents';
import { ShipmentStatus } from '@corridor/contracts/shipments';
import { useApiQuery } from '../api/hooks';
import { cargoEndpoints } from '../company/cargo';
import { certificateEndpoints } from '../company/certificates';
import { shipmentEndpoints } from '../company/shipments';
import { useFormat } from '../i18n/format';
import { DataTable, Pager } from '../ui/DataTable';
import { DocumentLink } from '../ui/documents/DocumentLink';
import { documentsList } from '../ui/documents/documents';
import { useCompanies } from '../ui/lookups';
import { DocumentOwner } from '../ui/references/EntityRefs';
import { StatusPill } from '../ui/StatusPill';
import { Tabs } from '../ui/Tabs';

const KINDS = ['shipments', 'cargo', 'documents', 'certificates'] as const;
type Kind = (typeof KINDS)[number];
const LIMIT = 25;

/** Every company's shipments, cargo, documents and certificates for the association, filtered by company and state. */
export default function OversightScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const raw = useParams().kind as Kind;
  const kind: Kind = KINDS.includes(raw) ? raw : 'shipments';
  const companies = useCompanies();
  const [companyId, setCompanyId] = useState<number | undefined>();
  const [status, setStatus] = useState('');
  const [offset, setOffset] = useState(0);
  const statuses: Record<Kind, readonly string[]> = { shipments: ShipmentStatus.options, cargo: CargoStatus.options, certificates: CertificateStatus.options, documents: DocumentKind.options };
  const select = (k: Kind) => {
    setStatus('');
    setOffset(0);
    void navigate(`/oversight/${k}`, { replace: true });
  };
  return (
    <div className="screen">
      <div className="screen-head">
        <h1>{t('oversight.title')}</h1>
      </div>
      <Tabs label={t('oversight.title')} selected={kind} onSelect={select} tabs={KINDS.map((k) => ({ key: k, label: t(`oversight.${k}`) }))} />
      <div id={`panel-${kind}`} role="tabpanel" aria-labelledby={`tab-${kind}`}>
        <div className="filters">
          <label className="field">
            <span>{t('journeys.company')}</span>
            <select value={companyId ?? ''} onChange={(e) => (setOffset(0), setCompanyId(Number(e.target.value) || undefined))}>
              <option value="">{t('common.all')}</option>
              {(companies.data?.items ?? []).map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span>{kind === 'documents' ? t('documents.kind') : t('shipments.status')}</span>
            <select value={status} onChange={(e) => (setOffset(0), setStatus(e.target.value))}>
              <option value="">{t('common.all')}</option>
              {statuses[kind].map((s) => (
                <option key={s} value={s}>
                  {kind === 'documents' ? t(`documentKind.${s as DocumentKind}`) : t(`status.${s as ShipmentStatus}`)}
                </option>
              ))}
            </select>
          </label>
        </div>
        <OversightTable kind={kind} companyId={companyId} status={status} offset={offset} onPage={setOffset} companyName={companies.name} />
      </div>
    </div>
  );
}

function OversightTable({ kind, companyId, status, offset, onPage, companyName }: { kind: Kind; companyId?: number; status: string; offset: number; onPage: (o: number) => void; companyName: (id: number) => string }) {
  const { t } = useTranslation();
  const f = useFormat();
  const base = { limit: LIMIT, offset, companyId };
  const shipments = useApiQuery(shipmentEndpoints.listAdmin, { query: { ...base, status: status ? [status as ShipmentStatus] : undefined } }, { enabled: kind === 'shipments' });
  const cargo = useApiQuery(cargoEndpoints.listAdmin, { query: { ...base, status: status ? [status as CargoStatus] : undefined } }, { enabled: kind === 'cargo' });
  const certs = useApiQuery(certificateEndpoints.list, { query: { ...base, status: status ? [status as CertificateStatus] : undefined } }, { enabled: kind === 'certificates' });
  const docs = useApiQuery(documentsList, { query: { ...base, kind: (status || undefined) as DocumentKind | undefined } }, { enabled: kind === 'documents' });
  const common = { caption: t(`oversight.${kind}`), empty: { title: t('oversight.empty'), hint: t('common.clearFilters') } };
  const pager = (d: { total: number; items: unknown[] } | undefined) => <Pager offset={offset} limit={LIMIT} total={d?.total} count={d?.items.length ?? 0} onChange={onPage} />;
  const company = { key: 'company', header: t('journeys.company'), cell: (r: { companyId: number }) => companyName(r.companyId) };
  if (kind === 'shipments')
    return (
      <>
        <DataTable
          {...common}
          rows={shipments.data?.items}
          loading={shipments.isPending}
          error={shipments.error}
          rowKey={(s) => s.id}
          columns={[
            { key: 'ref', header: t('shipments.reference'), cell: (s) => <Link to={`/shipments/${s.id}`}>{s.reference}</Link> },
            company,
            { key: 'route', header: t('shipments.route'), cell: (s) => `${s.origin.place} → ${s.destination.place}` },
            { key: 'status', header: t('shipments.status'), cell: (s) => <StatusPill value={s.status} /> },
            { key: 'updated', header: t('oversight.updated'), cell: (s) => f.dateTime(s.updatedAt) },
          ]}
        />
        {pager(shipments.data)}
      </>
    );
  if (kind === 'cargo')
    return (
      <>
        <DataTable
          {...common}
          rows={cargo.data?.items}
          loading={cargo.isPending}
          error={cargo.error}
          rowKey={(c) => c.id}
          columns={[
            { key: 'idf', header: t('cargo.idfNumber'), cell: (c) => <Link to={`/cargo/${c.id}`}>{c.idfNumber}</Link> },
            company,
            { key: 'checks', header: t('cargo.checks'), cell: (c) => (c.extraction.valid ? t('cargo.checksPassed') : t('cargo.needsCorrection')) },
            { key: 'status', header: t('shipments.status'), cell: (c) => <StatusPill value={c.status} /> },
            { key: 'created', header: t('cargo.created'), cell: (c) => f.dateTime(c.createdAt) },
          ]}
        />
        {pager(cargo.data)}
      </>
    );
  if (kind === 'certificates')
    return (
      <>
        <DataTable
          {...common}
          rows={certs.data?.items}
          loading={certs.isPending}
          error={certs.error}
          rowKey={(c) => c.id}
          columns={[
            { key: 'number', header: t('certificates.number'), cell: (c) => <Link to={`/approvals?open=${c.id}`}>{c.number}</Link> },
            company,
            { key: 'idf', header: t('cargo.idfNumber'), cell: (c) => c.cargo.idfNumber },
            { key: 'status', header: t('shipments.status'), cell: (c) => <StatusPill value={c.status} /> },
            { key: 'applied', header: t('certificates.applied'), cell: (c) => f.dateTime(c.createdAt) },
          ]}
        />
        {pager(certs.data)}
      </>
    );
  return (
    <>
      <DataTable
        {...common}
        rows={docs.data?.items}
        loading={docs.isPending}
        error={docs.error}
        rowKey={(d) => d.id}
        columns={[
          { key: 'file', header: t('documents.file'), cell: (d) => <DocumentLink documentId={d.id} label={d.filename} /> },
          company,
          { key: 'kind', header: t('documents.kind'), cell: (d) => t(`documentKind.${d.kind}`) },
          { key: 'owner', header: t('oversight.owner'), cell: (d) => <DocumentOwner ownerType={d.ownerType} ownerId={d.ownerId} /> },
          { key: 'uploaded', header: t('oversight.uploaded'), cell: (d) => `${f.dateTime(d.createdAt)} · ${d.uploadedBy.email}` },
        ]}
      />
      {pager(docs.data)}
    </>
  );
}
