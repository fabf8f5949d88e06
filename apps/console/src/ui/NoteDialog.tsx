import { useEffect, useMemo, useRef, useState } from 'react';
import { FormProvider } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { TextAreaField } from './form/fields';
import { FormFooter } from './form/FormFooter';
import { useServerProblems } from './form/server-errors';
import { useZodForm } from './form/useZodForm';

interface Props {
  open: boolean;
  title: string;
  /** The label of the note field; required notes cannot be left empty. */
  noteLabel: string;
  noteRequired?: boolean;
  /** The note's schema in the contract (a rejection's reason: at least 5 characters); checked before sending. */
  note?: z.ZodType<string, string>;
  confirm: string;
  danger?: boolean;
  onConfirm: (note: string) => Promise<unknown>;
  onClose: () => void;
}

/**
 * A modal that asks for a note (acknowledge, resolve, reject with a reason): a react-hook-form form
 * checked by the note's schema in the contract before anything is sent, and the API's refusal said
 * once, under the note when it is about the note.
 */
export function NoteDialog({ open, title, noteLabel, noteRequired, note, confirm, danger, onConfirm, onClose }: Props) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  const [error, setError] = useState<unknown>(null);
  const schema = useMemo(
    () => z.object({ note: note ?? (noteRequired ? z.string().trim().min(1).max(2000) : z.string().trim().max(2000)) }),
    [note, noteRequired],
  );
  const form = useZodForm(schema, { defaultValues: { note: '' } });
  const label = noteRequired ? noteLabel : `${noteLabel} (${t('common.optional')})`;
  // a refusal of the reason or note (whatever the API calls it) goes under the field
  const problem = useServerProblems(form, error, { note: label }, { reason: 'note' });
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) {
      form.reset({ note: '' });
      setError(null);
      d.showModal();
    } else if (!open && d.open) d.close();
  }, [open]); // eslint-disable-line react-hooks/exhaustive-deps -- reset when opened

  const submit = form.handleSubmit(async (v) => {
    setError(null);
    try {
      await onConfirm(v.note.trim());
      onClose();
    } catch (err) {
      setError(err);
    }
  });

  return (
    <dialog ref={ref} onClose={onClose} aria-labelledby="note-dialog-title">
      <FormProvider {...form}>
        <form onSubmit={(e) => void submit(e)} noValidate>
          <h2 id="note-dialog-title">{title}</h2>
          <TextAreaField name="note" label={label} required={noteRequired} maxLength={2000} autoFocus />
          <FormFooter problem={problem} submitLabel={confirm} tone={danger ? 'danger' : 'primary'} onCancel={onClose} />
        </form>
      </FormProvider>
    </dialog>
  );
}
