import { useState } from 'react';
import { FormProvider } from 'react-hook-form';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CertificateGenerateInput, PaymentMethod, type Certificate } from '@corridor/contracts/certificates';
import { useApiMutation, useApiQuery } from '../api/hooks';
import { useFormat } from '../i18n/format';
import { may } from '../session/access';
import { useUser } from '../session/useUser';
import { SelectField, TextField } from '../ui/form/fields';
import { FormFooter } from '../ui/form/FormFooter';
import { useServerProblems } from '../ui/form/server-errors';
import { useZodForm } from '../ui/form/useZodForm';
import { StatusPill } from '../ui/StatusPill';
import { certificateEndpoints } from './certificates';

/** One certificate: its state, the decision, payment (to generate it) and the certificate, invoice and receipt links. */
export function CertificateCard({ certificate: c, onClose }: { certificate: Certificate; onClose: () => void }) {
  const { t } = useTranslation();
  const f = useFormat();
  const user = useUser();
  const hasDocuments = c.documents.certificate !== null;
  const links = useApiQuery(
    certificateEndpoints.viewLinks,
    { params: { id: c.id }, query: { ttlSeconds: 900 } },
    { enabled: hasDocuments, staleTime: 60_000 },
  );
  return (
    <section className="card stack" aria-labelledby="cert-title" data-testid="certificate-card">
      <div className="row">
        <h2 id="cert-title" className="grow">
          {t('certificates.certificate')} {c.number}
        </h2>
        <StatusPill value={c.status} />
        <button type="button" className="btn btn-icon" onClick={onClose} aria-label={t('common.close')}>
          ×
        </button>
      </div>
      <dl className="facts">
        <dt>{t('cargo.idfNumber')}</dt>
        {/* the cargo under review, one click away (its IDF, documents and line items) */}
        <dd>
          <Link to={`/cargo/${c.cargoId}`}>{c.cargo.idfNumber}</Link>
        </dd>
        <dt>{t('cargo.importer')}</dt>
        <dd>{c.cargo.importerName}</dd>
        <dt>{t('certificates.fee')}</dt>
        <dd>{f.money(c.fee.amount, c.fee.currency)}</dd>
        <dt>{t('certificates.applied')}</dt>
        <dd>
          {f.dateTime(c.createdAt)} · {c.applicant.email}
        </dd>
        {c.payment && (
          <>
            <dt>{t('certificates.payment')}</dt>
            <dd>
              {t(`paymentMethod.${c.payment.method}`)} {c.payment.reference} · {f.dateTime(c.payment.paidAt)}
            </dd>
          </>
        )}
        {c.validUntil && (
          <>
            <dt>{t('certificates.validUntil')}</dt>
            <dd>{f.dateTime(c.validUntil)}</dd>
          </>
        )}
        <dt>{t('certificates.verification')}</dt>
        <dd className="mono">{c.verificationCode}</dd>
        {c.decision && (
          <>
            <dt>{t('certificates.decision')}</dt>
            <dd>
              {f.dateTime(c.decision.at)} · {c.decision.by.email}
              {c.decision.reason && <div>{c.decision.reason}</div>}
            </dd>
          </>
        )}
      </dl>
      {links.data && (
        <p className="toolbar">
          <a className="btn" href={links.data.certificate.url} download={links.data.certificate.filename}>
            {t('certificates.theCertificate')}
          </a>
          <a className="btn" href={links.data.invoice.url} download={links.data.invoice.filename}>
            {t('certificates.invoice')}
            {c.invoiceNumber && ` ${c.invoiceNumber}`}
          </a>
          <a className="btn" href={links.data.receipt.url} download={links.data.receipt.filename}>
            {t('certificates.receipt')}
            {c.receiptNumber && ` ${c.receiptNumber}`}
          </a>
        </p>
      )}
      {c.allowedActions.includes('generate') && may(user, certificateEndpoints.generate) && <PayForm certificateId={c.id} />}
    </section>
  );
}

/** Record the fee's payment: the certificate, invoice and receipt are generated and it goes to the association. */
function PayForm({ certificateId }: { certificateId: number }) {
  const { t } = useTranslation();
  const generate = useApiMutation(certificateEndpoints.generate, { invalidates: ['certificates.'] });
  const [error, setError] = useState<unknown>(null);
  const form = useZodForm(CertificateGenerateInput, { defaultValues: { paymentMethod: 'mpesa', paymentReference: '' } });
  const labels = { paymentMethod: t('certificates.paymentMethod'), paymentReference: t('certificates.paymentReference') };
  // a refusal of the reference is said under it; the rest in the form's alert, once
  const problem = useServerProblems(form, error, labels);
  const submit = form.handleSubmit(async (body) => {
    setError(null);
    await generate.mutateAsync({ params: { id: certificateId }, body }).catch(setError);
  });
  return (
    <FormProvider {...form}>
      <form onSubmit={(e) => void submit(e)} aria-label={t('certificates.pay')} noValidate>
        <h3>{t('certificates.pay')}</h3>
        <p className="small muted">{t('certificates.payHint')}</p>
        <div className="form-grid">
          <SelectField
            name="paymentMethod"
            label={labels.paymentMethod}
            options={PaymentMethod.options.map((m) => ({ value: m, label: t(`paymentMethod.${m}`) }))}
          />
          <TextField name="paymentReference" label={labels.paymentReference} required placeholder="QK7310042X" />
        </div>
        <FormFooter problem={problem} submitLabel={t('certificates.generate')} />
      </form>
    </FormProvider>
  );
}
