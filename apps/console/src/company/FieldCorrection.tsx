import { useMemo, useState, type ReactNode } from 'react';
import { FormProvider, get, useFieldArray, useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { CargoCorrection, type IdfLineItem } from '@corridor/contracts/cargo';
import { TextField } from '../ui/form/fields';
import { FormAlert } from '../ui/form/FormAlert';
import { useFieldIds } from '../ui/form/Field';
import { useSending } from '../ui/form/FormCard';
import { useServerProblems } from '../ui/form/server-errors';
import { useZodForm } from '../ui/form/useZodForm';

export type Correct = (body: CargoCorrection) => Promise<unknown>;
type ScalarKey = Exclude<keyof CargoCorrection, 'lineItems'>;

/**
 * An amount as typed ("12,500.50"): spaces and thousands separators dropped, then the contract's
 * number rule (empty: that rule's "fill this in"; not a number: a refinement the form words).
 */
const amount = (rule: z.ZodNumber) =>
  z
    .string()
    .trim()
    .transform((s, ctx) => {
      if (s === '') return undefined;
      const n = Number(s.replace(/[\s,]/g, ''));
      if (Number.isNaN(n)) {
        ctx.addIssue({ code: 'custom', message: 'not a number' });
        return z.NEVER;
      }
      return n;
    })
    .pipe(rule);
const fields = CargoCorrection.shape;
/** The contract's rule for one corrected value, as the form holds it (text). */
const valueRule = (field: ScalarKey) => (field === 'invoiceValue' ? amount(fields.invoiceValue.unwrap()) : fields[field].unwrap());

/**
 * One extracted value, correctable in place: "Correct" opens an input with the value, Save sends it
 * once the contract's CargoCorrection rule for that field holds (the server checks it again and the
 * review shows the new result), Cancel or Escape leaves it as is.
 */
export function CorrectableValue({
  field,
  label,
  value,
  shown,
  correct,
}: {
  field: ScalarKey;
  label: string;
  value: string | number | null;
  shown: ReactNode;
  correct?: Correct;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  if (!correct) return <>{shown}</>;
  if (!open) {
    return (
      <span className="correctable">
        <span>{shown}</span>
        <button
          type="button"
          className="btn btn-small"
          aria-label={t('cargo.correctField', { field: label })}
          onClick={() => setOpen(true)}
        >
          {t('cargo.correct')}
        </button>
      </span>
    );
  }
  return <CorrectForm field={field} label={label} value={value} correct={correct} onDone={() => setOpen(false)} />;
}

function CorrectForm({
  field,
  label,
  value,
  correct,
  onDone,
}: {
  field: ScalarKey;
  label: string;
  value: string | number | null;
  correct: Correct;
  onDone(): void;
}) {
  const { t } = useTranslation();
  const schema = useMemo(() => z.object({ value: valueRule(field) }), [field]);
  const form = useZodForm(schema, {
    defaultValues: { value: value === null ? '' : String(value) },
    refinements: { value: t('form.number') },
  });
  const { submit, error } = useSending(form.handleSubmit, async (v: { value: string | number }) => {
    await correct({ [field]: v.value });
    onDone();
  });
  // the field's own refusal goes under the input (the API names it by the field), the rest in one sentence
  const problem = useServerProblems(form, error, { value: label }, { [field]: 'value' });
  const numeric = field === 'invoiceValue';
  return (
    <FormProvider {...form}>
      <form
        className="correct-form"
        aria-label={t('cargo.correctField', { field: label })}
        onSubmit={(e) => void submit(e)}
        onKeyDown={(e) => e.key === 'Escape' && onDone()}
        noValidate
      >
        <TextField
          name="value"
          label={<span className="sr-only">{label}</span>}
          required
          autoFocus
          inputMode={numeric ? 'decimal' : undefined}
        />
        <SaveOrCancel busy={form.formState.isSubmitting} onCancel={onDone} />
        <FormAlert message={problem} />
      </form>
    </FormProvider>
  );
}

const line = fields.lineItems.unwrap().element.shape;
/** The line items as the form holds them: amounts as typed, each checked by the contract's rule. */
const LineItemsForm = z.object({
  lineItems: z.array(
    z.object({
      hsCode: line.hsCode,
      description: line.description,
      quantity: amount(line.quantity),
      unit: line.unit,
      value: amount(line.value),
    }),
  ),
});
type Cell = keyof z.input<typeof LineItemsForm>['lineItems'][number];
const toRow = (li: IdfLineItem) => ({
  hsCode: li.hsCode,
  description: li.description,
  quantity: String(li.quantity),
  unit: li.unit,
  value: String(li.value),
});

/** The line items as a form: each cell an input checked by the contract; Save sends them all (the totals are checked again). */
export function LineItemsEditor({ items, correct, onDone }: { items: IdfLineItem[]; correct: Correct; onDone: () => void }) {
  const { t } = useTranslation();
  const form = useZodForm(LineItemsForm, {
    defaultValues: { lineItems: items.map(toRow) },
    refinements: { 'lineItems.*.quantity': t('form.number'), 'lineItems.*.value': t('form.number') },
  });
  const rows = useFieldArray({ control: form.control, name: 'lineItems' });
  const cols: [Cell, string, boolean][] = [
    ['hsCode', t('cargo.hsCode'), false],
    ['description', t('cargo.description'), false],
    ['quantity', t('cargo.quantity'), true],
    ['unit', t('cargo.unit'), false],
    ['value', t('cargo.value'), true],
  ];
  const { submit, error } = useSending(form.handleSubmit, async (v: z.output<typeof LineItemsForm>) => {
    await correct({ lineItems: v.lineItems });
    onDone();
  });
  // a refused cell (lineItems.2.value) goes under that cell, named by line and column; the rest in one sentence
  const labels = Object.fromEntries(
    rows.fields.flatMap((_, i) => cols.map(([k, label]) => [`lineItems.${i}.${k}`, t('cargo.lineCell', { line: i + 1, field: label })])),
  );
  const problem = useServerProblems(form, error, labels);
  return (
    <FormProvider {...form}>
      <form
        onSubmit={(e) => void submit(e)}
        aria-label={t('cargo.correctLineItems')}
        onKeyDown={(e) => e.key === 'Escape' && onDone()}
        noValidate
      >
        <div className="table-wrap mt-s">
          <table className="data">
            <caption className="sr-only">{t('cargo.lineItems')}</caption>
            <thead>
              <tr>
                {cols.map(([k, label, num]) => (
                  <th key={k} scope="col" className={num ? 'num' : undefined}>
                    {label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.fields.map((row, i) => (
                <tr key={row.id}>
                  {cols.map(([k, label, num]) => (
                    <td key={k}>
                      <CellInput
                        name={`lineItems.${i}.${k}`}
                        label={t('cargo.lineCell', { line: i + 1, field: label })}
                        numeric={num}
                        required={k !== 'description'}
                      />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <FormAlert message={problem} />
        <div className="row mt-s">
          <SaveOrCancel busy={form.formState.isSubmitting} onCancel={onDone} />
        </div>
      </form>
    </FormProvider>
  );
}

/** One cell of the line items: its label for screen readers (line and column), its problem under it and tied to it. */
function CellInput({ name, label, numeric, required }: { name: string; label: string; numeric: boolean; required: boolean }) {
  const { register, formState } = useFormContext();
  const error = (get(formState.errors, name) as { message?: string } | undefined)?.message;
  const { a11y, errorId } = useFieldIds({ error, required });
  return (
    <>
      <input
        className={numeric ? 'num' : undefined}
        aria-label={label}
        inputMode={numeric ? 'decimal' : undefined}
        {...a11y}
        {...register(name)}
      />
      {error && (
        <small className="field-error" id={errorId}>
          {error}
        </small>
      )}
    </>
  );
}

/** A correction's Save (saying it is working) and Cancel. */
function SaveOrCancel({ busy, onCancel }: { busy: boolean; onCancel(): void }) {
  const { t } = useTranslation();
  return (
    <>
      <button type="submit" className="btn btn-small btn-primary" disabled={busy}>
        {busy ? t('common.saving') : t('common.save')}
      </button>
      <button type="button" className="btn btn-small" onClick={onCancel}>
        {t('common.cancel')}
      </button>
    </>
  );
}
