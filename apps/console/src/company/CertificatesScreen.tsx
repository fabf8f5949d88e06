import { useState } from 'react';
import { FormProvider } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CertificateApplyInput, CertificateStatus, type Certificate } from '@corridor/contracts/certificates';
import { useApiMutation, useApiQuery } from '../api/hooks';
import { useFormat } from '../i18n/format';
import { may } from '../session/access';
import { useUser } from '../session/useUser';
import type { Column } from '../ui/DataTable';
import { ChoiceFilter } from '../ui/list/Filters';
import { PagedTable } from '../ui/list/PagedTable';
import { oneOf, usePagedFilters } from '../ui/list/usePagedFilters';
import { SelectField } from '../ui/form/fields';
import { FormError } from '../ui/forms';
import { FormAlert } from '../ui/form/FormAlert';
import { useServerProblems } from '../ui/form/server-errors';
import { useZodForm } from '../ui/form/useZodForm';
import { StatusPill } from '../ui/StatusPill';
import { cargoEndpoints } from './cargo';
import { CertificateCard } from './CertificateCard';
import { certificateEndpoints } from './certificates';

/** The company's single-use certificates: apply for a validated cargo, pay, follow the decision, download. */
export default function CertificatesScreen() {
  const { t } = useTranslation();
  const f = useFormat();
  const user = useUser();
  const [params, setParams] = useSearchParams();
  const list = usePagedFilters({ status: '' as CertificateStatus | '' });
  const { status } = list.filters;
  const q = useApiQuery(certificateEndpoints.list, { query: { limit: list.limit, offset: list.offset, status: oneOf(status) } });
  const openId = Number(params.get('open')) || null;
  const open = useApiQuery(certificateEndpoints.get, { params: { id: openId ?? 0 } }, { enabled: openId !== null });
  const select = (id: number | null) => setParams(id ? { open: String(id) } : {}, { replace: true });
  const columns: Column<Certificate>[] = [
    {
      key: 'number',
      header: t('certificates.number'),
      cell: (c) => (
        <button type="button" className="link-button" onClick={() => select(c.id)} aria-pressed={c.id === openId}>
          {c.number}
        </button>
      ),
    },
    { key: 'idf', header: t('cargo.idfNumber'), cell: (c) => <Link to={`/cargo/${c.cargoId}`}>{c.cargo.idfNumber}</Link> },
    { key: 'status', header: t('shipments.status'), cell: (c) => <StatusPill value={c.status} /> },
    { key: 'fee', header: t('certificates.fee'), numeric: true, cell: (c) => f.money(c.fee.amount, c.fee.currency) },
    { key: 'applied', header: t('certificates.applied'), cell: (c) => f.date(c.createdAt) },
    { key: 'decided', header: t('certificates.decision'), cell: (c) => (c.decision ? f.date(c.decision.at) : '—') },
  ];
  return (
    <div className="screen">
      <div className="screen-head">
        <h1>{t('certificates.title')}</h1>
      </div>
      {may(user, certificateEndpoints.apply) && <ApplyForCargo />}
      {/* the list at full width; beside it the certificate that is open */}
      <div className={openId ? 'two-col mt' : 'mt'}>
        <div>
          <div className="filters">
            <ChoiceFilter
              label={t('shipments.status')}
              value={status}
              options={CertificateStatus.options}
              optionLabel={(o) => t(`status.${o}`)}
              onChange={(v) => list.set('status', v)}
            />
          </div>
          <PagedTable
            caption={t('certificates.title')}
            columns={columns}
            query={q}
            list={list}
            rowKey={(c) => c.id}
            noMatch={t('certificates.noMatch')}
            empty={{ title: t('certificates.empty'), hint: t('certificates.emptyHint') }}
          />
        </div>
        {open.data && <CertificateCard certificate={open.data} onClose={() => select(null)} />}
      </div>
    </div>
  );
}

/** Validated cargo with no live certificate, offered for an application checked by the contract's CertificateApplyInput. */
function ApplyForCargo() {
  const { t } = useTranslation();
  const cargo = useApiQuery(cargoEndpoints.listCompany, { query: { limit: 100, status: ['validated'] } });
  const certs = useApiQuery(certificateEndpoints.list, { query: { limit: 1000 } });
  const apply = useApiMutation(certificateEndpoints.apply, { invalidates: ['certificates.'] });
  const [error, setError] = useState<unknown>(null);
  const form = useZodForm(CertificateApplyInput, { defaultValues: {} });
  const labels = { cargoId: t('certificates.eligibleCargo') };
  const problem = useServerProblems(form, error, labels);
  const submit = form.handleSubmit(async (body) => {
    setError(null);
    try {
      await apply.mutateAsync({ body });
      form.reset({});
    } catch (e) {
      setError(e);
    }
  });
  const covered = new Set((certs.data?.items ?? []).filter((c) => c.status !== 'rejected').map((c) => c.cargoId));
  const eligible = (cargo.data?.items ?? []).filter((c) => !covered.has(c.id));
  if (cargo.isPending || certs.isPending) return null;
  // what cannot be read is not "nothing to apply for": the certificates' failure is said by the list below
  if (certs.error) return null;
  return (
    <FormProvider {...form}>
      <form className="card" aria-label={t('certificates.apply')} onSubmit={(e) => void submit(e)} noValidate>
        <h2>{t('certificates.apply')}</h2>
        {cargo.error ? (
          <FormError error={cargo.error} />
        ) : eligible.length === 0 ? (
          <p className="muted">{t('certificates.noEligible')}</p>
        ) : (
          <div className="row">
            <SelectField
              name="cargoId"
              label={labels.cargoId}
              required
              numeric
              empty={t('common.choose')}
              className="grow"
              options={eligible.map((c) => ({ value: c.id, label: `${c.idfNumber} · ${c.consignor ?? c.importer.name}` }))}
            />
            <button type="submit" className="btn btn-primary" disabled={form.formState.isSubmitting}>
              {t('certificates.applySubmit')}
            </button>
          </div>
        )}
        <FormAlert message={problem} />
      </form>
    </FormProvider>
  );
}
