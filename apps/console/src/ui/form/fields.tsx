import { useState, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import { Controller, get, useFormContext, type ControllerRenderProps, type FieldValues } from 'react-hook-form';
import { fromLocalInput, localInput } from '../forms';
import { FieldGroup, FieldNotes, FormField, useFieldIds, type FieldA11y, type FieldFrame } from './Field';

/**
 * Fields of a react-hook-form form (inside its FormProvider), each labelled, hinted and showing its
 * error with the attributes that tie them (Field.tsx). `name` is the schema's field.
 */
type Common = Omit<FieldFrame, 'error'> & { name: string };

/** The first problem held under an error entry: its own, or one of its items' (a list field's second entry). */
function firstMessage(e: unknown): string | undefined {
  if (!e || typeof e !== 'object') return undefined;
  const { message } = e as { message?: unknown };
  if (typeof message === 'string') return message;
  // only the error's own items and fields: never its ref (an element of the page)
  for (const [key, v] of Object.entries(e)) {
    if (key === 'ref' || !v || typeof v !== 'object' || !(Array.isArray(v) || Object.getPrototypeOf(v) === Object.prototype)) continue;
    const m = firstMessage(v);
    if (m) return m;
  }
  return undefined;
}

/** The field's problem as the form holds it (resolver or server). */
function useError(name: string): string | undefined {
  const { formState } = useFormContext();
  return firstMessage(get(formState.errors, name));
}

type Controlled = ControllerRenderProps<FieldValues, string>;

/** A field whose control keeps a value of its own shape (an array, an ISO time) through react-hook-form's Controller. */
function ControlledField({
  name,
  label,
  hint,
  required,
  className,
  control: render,
}: Common & { control: (field: Controlled, a11y: FieldA11y) => ReactNode }) {
  const { control } = useFormContext();
  const error = useError(name);
  return (
    <FormField label={label} hint={hint} error={error} required={required} className={className}>
      {(a11y) => <Controller control={control} name={name} render={({ field }) => <>{render(field, a11y)}</>} />}
    </FormField>
  );
}

/** Text or a number; `valueAsNumber` makes it a number (empty: undefined), `emptyIsNull` an empty text null (a nullable field's "none"). */
export function TextField({
  name,
  label,
  hint,
  required,
  className,
  valueAsNumber,
  emptyIsNull,
  ...input
}: Common & Omit<InputHTMLAttributes<HTMLInputElement>, 'name' | 'id'> & { valueAsNumber?: boolean; emptyIsNull?: boolean }) {
  const { register } = useFormContext();
  const error = useError(name);
  const setValueAs = valueAsNumber
    ? (v: string) => (v === '' ? undefined : Number(v))
    : emptyIsNull
      ? (v: string | null) => (v === '' || v === null ? null : v)
      : undefined;
  return (
    <FormField label={label} hint={hint} error={error} required={required} className={className}>
      {(a11y) => <input {...input} {...a11y} {...register(name, setValueAs ? { setValueAs } : {})} />}
    </FormField>
  );
}

export interface Option<V extends string | number> {
  value: V;
  label: ReactNode;
}

const Options = ({ options }: { options: readonly Option<string | number>[] }) => (
  <>
    {options.map((o) => (
      <option key={o.value} value={o.value}>
        {o.label}
      </option>
    ))}
  </>
);

/**
 * One choice of a list; `numeric` values are numbers in the form (ids). An `empty` first option
 * stands for no choice: undefined in the form (a required field then says to fill it in), or null
 * with `emptyIsNull` (a nullable field's "none").
 */
export function SelectField<V extends string | number>({
  options,
  numeric,
  empty,
  emptyIsNull,
  ...rest
}: Common &
  Omit<SelectHTMLAttributes<HTMLSelectElement>, 'name' | 'id'> & {
    options: readonly Option<V>[];
    numeric?: boolean;
    empty?: ReactNode;
    emptyIsNull?: boolean;
  }) {
  const { name, label, hint, required, className, ...select } = rest;
  const valueOf = (v: string) => (v === '' ? (emptyIsNull ? null : undefined) : numeric ? Number(v) : v);
  return (
    <ControlledField
      name={name}
      label={label}
      hint={hint}
      required={required}
      className={className}
      control={(field, a11y) => (
        <select
          {...select}
          {...a11y}
          name={field.name}
          ref={field.ref}
          onBlur={field.onBlur}
          value={field.value === undefined || field.value === null ? '' : String(field.value)}
          onChange={(e) => field.onChange(valueOf(e.target.value))}
        >
          {empty !== undefined && <option value="">{empty}</option>}
          <Options options={options} />
        </select>
      )}
    />
  );
}

/** Several choices of a list (ids): a native multiple select, its value an array of numbers. */
export function MultiSelectField({
  options,
  size = 6,
  disabled,
  ...frame
}: Common & { options: readonly Option<number>[]; size?: number; disabled?: boolean }) {
  return (
    <ControlledField
      {...frame}
      control={(field, a11y) => (
        <select
          {...a11y}
          multiple
          size={size}
          disabled={disabled}
          name={field.name}
          ref={field.ref}
          onBlur={field.onBlur}
          value={((field.value as number[] | undefined) ?? []).map(String)}
          onChange={(e) => field.onChange([...e.target.options].filter((o) => o.selected).map((o) => Number(o.value)))}
        >
          <Options options={options} />
        </select>
      )}
    />
  );
}

/**
 * A moment: the browser's date and time picker in local time, the form's value ISO 8601 (as the
 * contracts take it); left empty, '' (a required moment says to fill it in), or null with `emptyIsNull`.
 */
export function DateTimeField({ emptyIsNull, ...frame }: Common & { emptyIsNull?: boolean }) {
  return (
    <ControlledField
      {...frame}
      control={(field, a11y) => (
        <input
          type="datetime-local"
          {...a11y}
          name={field.name}
          ref={field.ref}
          onBlur={field.onBlur}
          value={localInput(field.value as string | null | undefined)}
          onChange={(e) => field.onChange(fromLocalInput(e.target.value) ?? (emptyIsNull ? null : ''))}
        />
      )}
    />
  );
}

/** A list typed as text, one entry per comma or line (border posts, container numbers): the form's value is the array. */
export function ListField({ placeholder, ...frame }: Common & { placeholder?: string }) {
  const [text, setText] = useState<string | null>(null);
  return (
    <ControlledField
      {...frame}
      control={(field, a11y) => (
        <input
          {...a11y}
          name={field.name}
          ref={field.ref}
          placeholder={placeholder}
          onBlur={field.onBlur}
          value={text ?? ((field.value as string[] | undefined) ?? []).join(', ')}
          onChange={(e) => {
            setText(e.target.value);
            field.onChange(
              e.target.value
                .split(/[,\n]/)
                .map((x) => x.trim())
                .filter(Boolean),
            );
          }}
        />
      )}
    />
  );
}

/** Text of several lines (a reason, a description). */
export function TextAreaField({
  name,
  label,
  hint,
  required,
  className,
  ...area
}: Common & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'name' | 'id'>) {
  const { register } = useFormContext();
  const error = useError(name);
  return (
    <FormField label={label} hint={hint} error={error} required={required} className={className}>
      {(a11y) => <textarea {...area} {...a11y} {...register(name)} />}
    </FormField>
  );
}

/** Several choices shown at once (channels, alarms): checkboxes, the value an array of the chosen values. */
export function CheckboxesField<V extends string>({
  name,
  label,
  hint,
  required,
  className,
  options,
}: Common & { options: readonly Option<V>[] }) {
  const { control } = useFormContext();
  const error = useError(name);
  return (
    <FieldGroup label={label} hint={hint} error={error} required={required} className={className}>
      {(a11y) => (
        <Controller
          control={control}
          name={name}
          render={({ field }) => {
            const chosen = new Set((field.value as V[] | undefined) ?? []);
            return (
              <div className="checks">
                {options.map((o) => (
                  <label key={o.value} className="check">
                    <input
                      type="checkbox"
                      {...a11y}
                      checked={chosen.has(o.value)}
                      onBlur={field.onBlur}
                      onChange={(e) =>
                        field.onChange(options.map((x) => x.value).filter((v) => (v === o.value ? e.target.checked : chosen.has(v))))
                      }
                    />
                    {o.label}
                  </label>
                ))}
              </div>
            );
          }}
        />
      )}
    </FieldGroup>
  );
}

/** A yes or no: the box before its label, the hint and error under both. */
export function CheckboxField({ name, label, hint, className }: Omit<Common, 'required'>) {
  const { register } = useFormContext();
  const error = useError(name);
  const { a11y, hintId, errorId } = useFieldIds({ hint, error });
  return (
    <div className={`field ${className ?? ''}`}>
      <span className="check">
        <input type="checkbox" {...a11y} {...register(name)} />
        <label htmlFor={a11y.id}>{label}</label>
      </span>
      <FieldNotes hint={hint} error={error} hintId={hintId} errorId={errorId} />
    </div>
  );
}
