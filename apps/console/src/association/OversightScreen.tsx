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
import { DocumentLink } from '../ui/documents/DocumentLink';
import { documentsList } from '../ui/documents/documents';
import { ChoiceFilter, CompanyFilter } from '../ui/list/Filters';
import { PagedTable } from '../ui/list/PagedTable';
import { chosenId, oneOf, usePagedFilters, type PagedFilters } from '../ui/list/usePagedFilters';
import { useCompanies } from '../ui/lookups';
import { DocumentOwner } from '../ui/references/EntityRefs';
import { StatusPill } from '../ui/StatusPill';
import { Tabs } from '../ui/Tabs';

const KINDS = ['shipments', 'cargo', 'documents', 'certificates'] as const;
type Kind = (typeof KINDS)[number];
const STATUSES: Record<Kind, readonly string[]> = {
  shipments: ShipmentStatus.options,
  cargo: CargoStatus.options,
  certificates: CertificateStatus.options,
  documents: DocumentKind.options,
};

/** Every company's shipments, cargo, documents and certificates for the association, filtered by company and state. */
export default function OversightScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const raw = useParams().kind as Kind;
  const kind: Kind = KINDS.includes(raw) ? raw : 'shipments';
  const list = usePagedFilters({ companyId: '', status: '' });
  const select = (k: Kind) => {
    list.set('status', '');
    void navigate(`/oversight/${k}`, { replace: true });
  };
  return (
    <div className="screen">
      <div className="screen-head">
        <h1>{t('oversight.title')}</h1>
      </div>
      <Tabs
        label={t('oversight.title')}
        selected={kind}
        onSelect={select}
        tabs={KINDS.map((k) => ({ key: k, label: t(`oversight.${k}`) }))}
      />
      <div id={`panel-${kind}`} role="tabpanel" aria-labelledby={`tab-${kind}`}>
        <div className="filters">
          <CompanyFilter value={list.filters.companyId} onChange={(v) => list.set('companyId', v)} />
          <ChoiceFilter
            label={kind === 'documents' ? t('documents.kind') : t('shipments.status')}
            value={list.filters.status}
            options={STATUSES[kind]}
            optionLabel={(s) => (kind === 'documents' ? t(`documentKind.${s as DocumentKind}`) : t(`status.${s as ShipmentStatus}`))}
            onChange={(v) => list.set('status', v)}
          />
        </div>
        <OversightTable kind={kind} list={list} companyId={chosenId(list.filters.companyId)} status={list.filters.status} />
      </div>
    </div>
  );
}

function OversightTable({ kind, list, companyId, status }: { kind: Kind; list: PagedFilters; companyId?: number; status: string }) {
  const { t } = useTranslation();
  const f = useFormat();
  const companies = useCompanies();
  const base = { limit: list.limit, offset: list.offset, companyId };
  const shipments = useApiQuery(
    shipmentEndpoints.listAdmin,
    { query: { ...base, status: oneOf(status as ShipmentStatus | '') } },
    { enabled: kind === 'shipments' },
  );
  const cargo = useApiQuery(
    cargoEndpoints.listAdmin,
    { query: { ...base, status: oneOf(status as CargoStatus | '') } },
    { enabled: kind === 'cargo' },
  );
  const certs = useApiQuery(
    certificateEndpoints.list,
    { query: { ...base, status: oneOf(status as CertificateStatus | '') } },
    { enabled: kind === 'certificates' },
  );
  const docs = useApiQuery(
    documentsList,
    { query: { ...base, kind: (status || undefined) as DocumentKind | undefined } },
    { enabled: kind === 'documents' },
  );
  // nothing recorded yet, or nothing under the filters chosen (PagedTable tells them apart)
  const common = {
    caption: t(`oversight.${kind}`),
    list,
    empty: { title: t('oversight.nothing'), hint: t('oversight.nothingHint') },
    noMatch: t('oversight.empty'),
  };
  const company = { key: 'company', header: t('journeys.company'), cell: (r: { companyId: number }) => companies.name(r.companyId) };
  if (kind === 'shipments')
    return (
      <PagedTable
        {...common}
        query={shipments}
        rowKey={(s) => s.id}
        columns={[
          { key: 'ref', header: t('shipments.reference'), cell: (s) => <Link to={`/shipments/${s.id}`}>{s.reference}</Link> },
          company,
          { key: 'route', header: t('shipments.route'), cell: (s) => `${s.origin.place} → ${s.destination.place}` },
          { key: 'status', header: t('shipments.status'), cell: (s) => <StatusPill value={s.status} /> },
          { key: 'updated', header: t('oversight.updated'), cell: (s) => f.dateTime(s.updatedAt) },
        ]}
      />
    );
  if (kind === 'cargo')
    return (
      <PagedTable
        {...common}
        query={cargo}
        rowKey={(c) => c.id}
        columns={[
          { key: 'idf', header: t('cargo.idfNumber'), cell: (c) => <Link to={`/cargo/${c.id}`}>{c.idfNumber}</Link> },
          company,
          {
            key: 'checks',
            header: t('cargo.checks'),
            cell: (c) => (c.extraction.valid ? t('cargo.checksPassed') : t('cargo.needsCorrection')),
          },
          { key: 'status', header: t('shipments.status'), cell: (c) => <StatusPill value={c.status} /> },
          { key: 'created', header: t('cargo.created'), cell: (c) => f.dateTime(c.createdAt) },
        ]}
      />
    );
  if (kind === 'certificates')
    return (
      <PagedTable
        {...common}
        query={certs}
        rowKey={(c) => c.id}
        columns={[
          { key: 'number', header: t('certificates.number'), cell: (c) => <Link to={`/approvals?open=${c.id}`}>{c.number}</Link> },
          company,
          { key: 'idf', header: t('cargo.idfNumber'), cell: (c) => <Link to={`/cargo/${c.cargoId}`}>{c.cargo.idfNumber}</Link> },
          { key: 'status', header: t('shipments.status'), cell: (c) => <StatusPill value={c.status} /> },
          { key: 'applied', header: t('certificates.applied'), cell: (c) => f.dateTime(c.createdAt) },
        ]}
      />
    );
  return (
    <PagedTable
      {...common}
      query={docs}
      rowKey={(d) => d.id}
      columns={[
        { key: 'file', header: t('documents.file'), cell: (d) => <DocumentLink documentId={d.id} label={d.filename} /> },
        company,
        { key: 'kind', header: t('documents.kind'), cell: (d) => t(`documentKind.${d.kind}`) },
        { key: 'owner', header: t('oversight.owner'), cell: (d) => <DocumentOwner ownerType={d.ownerType} ownerId={d.ownerId} /> },
        { key: 'uploaded', header: t('oversight.uploaded'), cell: (d) => `${f.dateTime(d.createdAt)} · ${d.uploadedBy.email}` },
      ]}
    />
  );
}
