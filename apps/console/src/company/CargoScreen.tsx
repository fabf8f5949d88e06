import { useState } from 'react';
import { FormProvider } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import type { z } from 'zod';
import { useTranslation } from 'react-i18next';
import { CargoStatus, type Cargo } from '@corridor/contracts/cargo';
import { call } from '../api/client';
import { useApiQuery } from '../api/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useFormat } from '../i18n/format';
import { may } from '../session/access';
import { useUser } from '../session/useUser';
import type { Column } from '../ui/DataTable';
import { ChoiceFilter } from '../ui/list/Filters';
import { PagedTable } from '../ui/list/PagedTable';
import { oneOf, usePagedFilters } from '../ui/list/usePagedFilters';
import { DocumentUploadValues, documentUpload, uploadBody } from '../ui/documents/documents';
import { TextField } from '../ui/form/fields';
import { FormAlert } from '../ui/form/FormAlert';
import { useSending } from '../ui/form/FormCard';
import { useServerProblems } from '../ui/form/server-errors';
import { useZodForm } from '../ui/form/useZodForm';
import { StatusPill } from '../ui/StatusPill';
import { cargoEndpoints } from './cargo';

/** The company's cargo from import declaration forms: upload an IDF to read it, then review each. */
export default function CargoScreen() {
  const { t } = useTranslation();
  const f = useFormat();
  const user = useUser();
  const list = usePagedFilters({ status: '' as CargoStatus | '' });
  const { status } = list.filters;
  const q = useApiQuery(cargoEndpoints.listCompany, { query: { limit: list.limit, offset: list.offset, status: oneOf(status) } });
  const columns: Column<Cargo>[] = [
    { key: 'idf', header: t('cargo.idfNumber'), cell: (c) => <Link to={`/cargo/${c.id}`}>{c.idfNumber}</Link> },
    { key: 'importer', header: t('cargo.importer'), cell: (c) => c.importer.name },
    { key: 'consignor', header: t('cargo.consignor'), cell: (c) => c.consignor ?? '—' },
    {
      key: 'value',
      header: t('cargo.invoiceValue'),
      numeric: true,
      cell: (c) => (c.invoice.value !== null && c.invoice.currency ? f.money(c.invoice.value, c.invoice.currency) : '—'),
    },
    {
      key: 'checks',
      header: t('cargo.checks'),
      cell: (c) =>
        c.extraction.valid ? (
          <span className="pill pill-ok">{t('cargo.checksPassed')}</span>
        ) : (
          <span className="pill pill-warn">{t('cargo.needsCorrection')}</span>
        ),
    },
    { key: 'status', header: t('shipments.status'), cell: (c) => <StatusPill value={c.status} /> },
    { key: 'created', header: t('cargo.created'), cell: (c) => f.date(c.createdAt) },
  ];
  return (
    <div className="screen">
      <div className="screen-head">
        <h1>{t('cargo.title')}</h1>
      </div>
      {may(user, cargoEndpoints.processIdf) && <IdfUpload />}
      <div className="filters mt">
        <ChoiceFilter
          label={t('shipments.status')}
          value={status}
          options={CargoStatus.options}
          optionLabel={(o) => t(`status.${o}`)}
          onChange={(v) => list.set('status', v)}
        />
      </div>
      <PagedTable
        caption={t('cargo.title')}
        columns={columns}
        query={q}
        list={list}
        rowKey={(c) => c.id}
        noMatch={t('cargo.noMatch')}
        empty={{ title: t('cargo.empty'), hint: t('cargo.emptyHint') }}
      />
    </div>
  );
}

/** The IDF upload's form: the file only (its kind is idf). */
const IdfValues = DocumentUploadValues.pick({ file: true });

/** Upload an IDF (PDF with text, or the JSON/CSV export): it is read at once and opens for review. */
function IdfUpload() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const form = useZodForm(IdfValues, { refinements: { file: t('documents.chooseFile') } });
  const labels = { file: t('cargo.idfFile') };
  // reading once the file is on its way (not while the form is only being checked)
  const [busy, setBusy] = useState(false);
  const { submit, error } = useSending(form.handleSubmit, async ({ file }: z.output<typeof IdfValues>) => {
    setBusy(true);
    try {
      const doc = await call(documentUpload, { body: uploadBody({ kind: 'idf', file }) });
      const cargo = await call(cargoEndpoints.processIdf, { body: { documentId: doc.id } });
      await client.invalidateQueries({ queryKey: [cargoEndpoints.listCompany.id] });
      void navigate(`/cargo/${cargo.id}`);
    } finally {
      setBusy(false);
    }
  });
  const problem = useServerProblems(form, error, labels);
  return (
    <FormProvider {...form}>
      <form className="card" onSubmit={(e) => void submit(e)} aria-label={t('cargo.upload')} noValidate>
        <h2>{t('cargo.upload')}</h2>
        <div className="row">
          <TextField
            name="file"
            label={labels.file}
            hint={t('cargo.uploadHint')}
            className="grow"
            type="file"
            required
            accept=".pdf,.json,.csv,application/pdf,application/json,text/csv"
          />
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? t('cargo.reading') : t('cargo.read')}
          </button>
        </div>
        <FormAlert message={problem} />
      </form>
    </FormProvider>
  );
}
