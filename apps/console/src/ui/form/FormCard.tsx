import { useState, type ReactNode } from 'react';
import { FormProvider, type FieldValues, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormFooter } from './FormFooter';

/**
 * A react-hook-form form in its card: the title (also the form's accessible name), its fields, the
 * refusal said once (or the sentence that it went through), Cancel and the submit button, which
 * says it is working while the request runs. `actions` come before Cancel (Undo on a drawing).
 */
export function FormCard<F extends FieldValues, O>({
  form,
  title,
  heading,
  onSubmit,
  onCancel,
  submitLabel,
  danger,
  problem,
  done,
  actions,
  ready = true,
  children,
}: {
  form: UseFormReturn<F, unknown, O>;
  title: string;
  onSubmit(e?: React.BaseSyntheticEvent): Promise<void>;
  onCancel?(): void;
  submitLabel?: string;
  danger?: boolean;
  problem: string | null;
  done?: string | null | false;
  actions?: ReactNode;
  /** False while the form cannot be sent yet (a shape not drawn far enough): the submit button is off. */
  ready?: boolean;
  /** The heading shown, when it is not the title (a new geofence's shape). */
  heading?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <FormProvider {...form}>
      <form className="card" onSubmit={(e) => void onSubmit(e)} aria-label={title} noValidate>
        <h2>{heading ?? title}</h2>
        {children}
        <FormFooter
          problem={problem}
          done={done}
          submitLabel={submitLabel ?? t('common.save')}
          busyLabel={submitLabel ? undefined : t('common.saving')}
          ready={ready}
          tone={danger ? 'danger' : 'primary'}
          onCancel={onCancel}
          actions={actions}
        />
      </form>
    </FormProvider>
  );
}

/**
 * A form's submit: the checked values sent by `send`, and what the server refused kept for the form
 * to word (useServerProblems). `handleSubmit` is the form's; the refusal is cleared on each try.
 */
export function useSending<V>(
  handleSubmit: (fn: (values: V) => Promise<void>) => (e?: React.BaseSyntheticEvent) => Promise<void>,
  send: (values: V) => Promise<unknown>,
) {
  const [error, setError] = useState<unknown>(null);
  const submit = handleSubmit(async (values) => {
    setError(null);
    try {
      await send(values);
    } catch (e) {
      setError(e);
    }
  });
  return { submit, error };
}
