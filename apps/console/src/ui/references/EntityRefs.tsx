import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { DocumentOwnerType } from '@corridor/contracts/documents';
import { useApiQuery } from '../../api/hooks';
import { cargoEndpoints } from '../../company/cargo';
import { certificateEndpoints } from '../../company/certificates';
import { shipmentEndpoints } from '../../company/shipments';
import { complaintEndpoints } from '../../association/association';
import { useCompanies } from '../lookups';
import { StatusPill } from '../StatusPill';

/**
 * Links to other records named as a person knows them (an IDF number, a shipment reference, a
 * certificate number), never by their bare database id. Each asks for its record once (the query
 * cache shares it with the record's own screen); while it loads, or when it cannot be read, the link
 * says what kind of record it is.
 */

/** What the goods are: the first line item's description, and how many more lines follow. */
function goodsOf(lineItems: readonly { description: string }[], more: (n: number) => string): string {
  const [first, ...rest] = lineItems;
  if (!first) return '';
  return rest.length ? `${first.description} ${more(rest.length)}` : first.description;
}

/**
 * A cargo: its IDF number linking to it, what the goods are, and its status. `named`: the link says
 * it is a cargo ("Cargo 26NBOIM…"), where the record could be of any kind (a document's owner), so a
 * list of the page's links reads as the other records' do.
 */
export function CargoRef({ cargoId, detail = true, named = false }: { cargoId: number; detail?: boolean; named?: boolean }) {
  const { t } = useTranslation();
  const q = useApiQuery(cargoEndpoints.get, { params: { cargoId } }, { staleTime: 60_000 });
  const c = q.data;
  const goods = c ? goodsOf(c.lineItems, (n) => t('cargo.moreLines', { count: n })) : '';
  return (
    <span className="entity-ref">
      <Link to={`/cargo/${cargoId}`}>
        {c
          ? named
            ? `${t('oversight.ownerType.cargo')} ${c.idfNumber}`
            : c.idfNumber
          : t(q.isPending ? 'common.loadingRef' : 'cargo.unreadable')}
      </Link>
      {c && detail && goods && <span className="muted"> · {goods}</span>}
      {c && detail && (
        <>
          {' '}
          <StatusPill value={c.status} />
        </>
      )}
    </span>
  );
}

/** A shipment: its reference linking to it. */
function ShipmentRef({ shipmentId }: { shipmentId: number }) {
  const { t } = useTranslation();
  const q = useApiQuery(shipmentEndpoints.get, { params: { shipmentId } }, { staleTime: 60_000 });
  return (
    <Link to={`/shipments/${shipmentId}`}>
      {q.data ? `${t('shipments.shipment')} ${q.data.reference}` : t(q.isPending ? 'common.loadingRef' : 'shipments.unreadable')}
    </Link>
  );
}

/** A certificate: its number (it opens in the approval queue). */
function CertificateRef({ certificateId }: { certificateId: number }) {
  const { t } = useTranslation();
  const q = useApiQuery(certificateEndpoints.get, { params: { id: certificateId } }, { staleTime: 60_000 });
  return (
    <Link to={`/approvals?open=${certificateId}`}>
      {q.data ? `${t('certificates.certificate')} ${q.data.number}` : t(q.isPending ? 'common.loadingRef' : 'certificates.unreadable')}
    </Link>
  );
}

/** A complaint: its title linking to it. */
function ComplaintRef({ complaintId }: { complaintId: number }) {
  const { t } = useTranslation();
  const q = useApiQuery(complaintEndpoints.get, { params: { id: complaintId } }, { staleTime: 60_000 });
  return (
    <Link to={`/complaints/${complaintId}`}>
      {q.data ? `${t('oversight.ownerType.complaint')}: ${q.data.title}` : t(q.isPending ? 'common.loadingRef' : 'complaints.unreadable')}
    </Link>
  );
}

/** What a document is attached to, named as that record's own screen names it. */
export function DocumentOwner({ ownerType, ownerId }: { ownerType: DocumentOwnerType | null; ownerId: string | null }) {
  const { t } = useTranslation();
  const companies = useCompanies();
  const id = Number(ownerId);
  if (!ownerType) return <>—</>;
  if (!Number.isInteger(id) || id <= 0) return <>{t(`oversight.ownerType.${ownerType}`)}</>;
  switch (ownerType) {
    case 'shipment':
      return <ShipmentRef shipmentId={id} />;
    case 'cargo':
      return <CargoRef cargoId={id} detail={false} named />;
    case 'certificate':
      return <CertificateRef certificateId={id} />;
    case 'complaint':
      return <ComplaintRef complaintId={id} />;
    case 'company':
      return <>{companies.name(id)}</>;
    default:
      return <>{t(`oversight.ownerType.${ownerType}`)}</>;
  }
}
