import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useExplainError } from '../api/messages';

interface Props {
  open: boolean;
  title: string;
  /** The label of the note field; required notes cannot be left empty. */
  noteLabel: string;
  noteRequired?: boolean;
  confirm: string;
  danger?: boolean;
  onConfirm: (note: string) => Promise<unknown>;
  onClose: () => void;
}

/** A modal that asks for a note (acknowledge, resolve, reject with a reason) and shows the API's refusal if any. */
export function NoteDialog({ open, title, noteLabel, noteRequired, confirm, danger, onConfirm, onClose }: Props) {
  const { t } = useTranslation();
  const explain = useExplainError();
  const ref = useRef<HTMLDialogElement>(null);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) {
      setNote('');
      setFailure(null);
      d.showModal();
    } else if (!open && d.open) d.close();
  }, [open]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setFailure(null);
    try {
      await onConfirm(note.trim());
      onClose();
    } catch (err) {
      setFailure(explain(err, { reason: noteLabel, note: noteLabel }).summary);
    } finally {
      setBusy(false);
    }
  }

  return (
    <dialog ref={ref} onClose={onClose} aria-labelledby="note-dialog-title">
      <form onSubmit={submit}>
        <h2 id="note-dialog-title">{title}</h2>
        <label className="field">
          <span>
            {noteLabel}
            {!noteRequired && <span className="muted"> ({t('common.optional')})</span>}
          </span>
          <textarea
            value={note} required={noteRequired} maxLength={2000} onChange={(e) => setNote(e.target.value)} autoFocus
            aria-invalid={failure ? true : undefined} aria-describedby={failure ? 'note-dialog-failure' : undefined}
          />
        </label>
        {failure && (
          <p role="alert" className="form-error" id="note-dialog-failure">
            {failure}
          </p>
        )}
        <div className="form-actions">
          <button type="button" className="btn" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className={danger ? 'btn btn-danger' : 'btn btn-primary'} disabled={busy || (noteRequired && !note.trim())}>
            {confirm}
          </button>
        </div>
      </form>
    </dialog>
  );
}
