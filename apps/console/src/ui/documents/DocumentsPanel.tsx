import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormProvider } from 'react-hook-form';
import { DocumentKind, type DocumentRecord } from '@corridor/contracts/documents';
import { useFormat } from '../../i18n/format';
import { SelectField, TextField } from '../form/fields';
import { FormAlert } from '../form/FormAlert';
import { useSending } from '../form/FormCard';
import { useServerProblems } from '../form/server-errors';
import { useZodForm } from '../form/useZodForm';
import { DocumentLink } from './DocumentLink';
import { DocumentUploadValues, uploadBody } from './documents';

/**
 * The documents of a shipment, cargo or complaint: each downloadable, and (where the user may)
 * a file to upload and attach with its kind.
 */
export function DocumentsPanel({
  documents,
  onUpload,
  kinds = DocumentKind.options,
}: {
  documents: DocumentRecord[];
  onUpload?: (form: FormData) => Promise<unknown>;
  kinds?: readonly string[];
}) {
  const { t } = useTranslation();
  const f = useFormat();

  return (
    <section className="card" aria-labelledby="docs-title">
      <h2 id="docs-title">{t('documents.title')}</h2>
      {documents.length === 0 ? (
        <p className="muted">{t('documents.none')}</p>
      ) : (
        <ul className="plain-list">
          {documents.map((d) => (
            <li key={d.id}>
              <DocumentLink documentId={d.id} label={d.filename} /> <span className="pill">{t(`documentKind.${d.kind}`)}</span>{' '}
              <span className="muted small">
                {f.dateTime(d.createdAt)} · {Math.max(1, Math.round(d.sizeBytes / 1024))} KB
              </span>
            </li>
          ))}
        </ul>
      )}
      {onUpload && <UploadForm kinds={kinds} onUpload={onUpload} />}
    </section>
  );
}

/** A file and its kind, checked by the contract's upload form before anything is sent; the refusal said once. */
function UploadForm({ kinds, onUpload }: { kinds: readonly string[]; onUpload: (form: FormData) => Promise<unknown> }) {
  const { t } = useTranslation();
  const form = useZodForm(DocumentUploadValues, {
    defaultValues: { kind: (kinds[0] ?? 'other') as DocumentKind },
    refinements: { file: t('documents.chooseFile') },
  });
  const labels = { kind: t('documents.kind'), file: t('documents.file') };
  // uploading once the file is on its way (not while the form is only being checked)
  const [busy, setBusy] = useState(false);
  const { submit, error } = useSending(form.handleSubmit, async (v: DocumentUploadValues) => {
    setBusy(true);
    try {
      await onUpload(uploadBody(v));
    } finally {
      setBusy(false);
    }
    // the file input emptied (react-hook-form resets the form's inputs when given no values)
    form.reset();
  });
  const problem = useServerProblems(form, error, labels);
  return (
    <FormProvider {...form}>
      <form className="row" onSubmit={(e) => void submit(e)} aria-label={t('documents.upload')} noValidate>
        <SelectField
          name="kind"
          label={labels.kind}
          required
          options={kinds.map((k) => ({ value: k, label: t(`documentKind.${k as DocumentKind}`) }))}
        />
        <TextField name="file" label={labels.file} type="file" required accept=".pdf,.png,.jpg,.jpeg,.tif,.tiff,.json,.csv,.txt,.xlsx" />
        <button type="submit" className="btn" disabled={busy}>
          {busy ? t('documents.uploading') : t('documents.upload')}
        </button>
      </form>
      <FormAlert message={problem} />
    </FormProvider>
  );
}
