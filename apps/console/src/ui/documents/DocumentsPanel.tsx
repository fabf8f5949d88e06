import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { DocumentKind, type DocumentRecord } from '@corridor/contracts/documents';
import { useFormat } from '../../i18n/format';
import { FormError } from '../forms';
import { DocumentLink } from './DocumentLink';

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
  const fileRef = useRef<HTMLInputElement>(null);
  const [kind, setKind] = useState(kinds[0] ?? 'other');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const file = fileRef.current?.files?.[0];
    if (!file || !onUpload) return;
    const form = new FormData();
    form.append('kind', kind);
    form.append('file', file, file.name);
    setBusy(true);
    setError(null);
    try {
      await onUpload(form);
      if (fileRef.current) fileRef.current.value = '';
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

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
      {onUpload && (
        <form className="row" onSubmit={submit} aria-label={t('documents.upload')}>
          <label className="field">
            <span>{t('documents.kind')}</span>
            <select value={kind} onChange={(e) => setKind(e.target.value)}>
              {kinds.map((k) => (
                <option key={k} value={k}>
                  {t(`documentKind.${k as DocumentKind}`)}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span>{t('documents.file')}</span>
            <input ref={fileRef} type="file" required accept=".pdf,.png,.jpg,.jpeg,.tif,.tiff,.json,.csv,.txt,.xlsx" />
          </label>
          <button type="submit" className="btn" disabled={busy}>
            {busy ? t('documents.uploading') : t('documents.upload')}
          </button>
        </form>
      )}
      <FormError error={error} />
    </section>
  );
}
