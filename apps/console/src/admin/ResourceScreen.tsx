import { useState, type ReactNode } from 'react';
import type { DefaultValues, FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import type { EndpointDef } from '@corridor/contracts/endpoint';
import { useApiMutation, useApiQuery } from '../api/hooks';
import type { Column } from '../ui/DataTable';
import { FormCard, useSending } from '../ui/form/FormCard';
import { useServerProblems } from '../ui/form/server-errors';
import { useZodForm } from '../ui/form/useZodForm';
import { FormError } from '../ui/forms';
import { SearchFilter } from '../ui/list/Filters';
import { PagedTable } from '../ui/list/PagedTable';
import { RowActions } from '../ui/list/RowActions';
import { searchText, usePagedFilters } from '../ui/list/usePagedFilters';

/**
 * The screens of Traccar's plain resources (groups, drivers, maintenance, computed attributes):
 * one list with a search, a form to add or edit one entry checked by the contract's input schema,
 * and a delete that asks first. Each screen gives its endpoints, columns and fields.
 */
export interface ResourceApi {
  list: EndpointDef;
  create: EndpointDef;
  update: EndpointDef;
  remove: EndpointDef;
  /** Query-key prefix of what a change makes stale (e.g. 'groups.'). */
  invalidates: string;
}

type Entry = { id: number };
const LIMIT = 50;

export function ResourceScreen<T extends Entry>({
  title,
  intro,
  api,
  columns,
  nameOf,
  addLabel,
  confirmDelete,
  empty,
  form,
}: {
  title: string;
  intro?: string;
  api: ResourceApi;
  columns: Column<T>[];
  nameOf(item: T): string;
  addLabel: string;
  confirmDelete(item: T): string;
  empty: { title: string; hint: string };
  /** The form for a new entry (null) or an edited one; `done` closes it. */
  form(item: T | null, done: () => void): ReactNode;
}) {
  const { t } = useTranslation();
  const list = usePagedFilters({ keyword: '' }, LIMIT);
  const q = useApiQuery(api.list, {
    query: { limit: list.limit, offset: list.offset, keyword: searchText(list.filters.keyword) },
  } as never);
  const del = useApiMutation(api.remove, { invalidates: [api.invalidates] });
  // the form open: a new entry (null) or one being edited
  const [editing, setEditing] = useState<T | null | undefined>(undefined);
  const actions: Column<T> = {
    key: 'actions',
    header: <span className="sr-only">{t('common.actions')}</span>,
    cell: (item) => (
      <RowActions
        editLabel={t('resources.editOne', { name: nameOf(item) })}
        onEdit={() => setEditing(item)}
        deleteLabel={t('resources.deleteOne', { name: nameOf(item) })}
        confirm={confirmDelete(item)}
        onDelete={() => del.mutate({ params: { id: item.id } } as never)}
      />
    ),
  };
  return (
    <div className="screen">
      <div className="screen-head">
        <h1>{title}</h1>
        <button type="button" className="btn btn-primary" onClick={() => setEditing(null)} disabled={editing === null}>
          {addLabel}
        </button>
      </div>
      {intro && <p className="muted">{intro}</p>}
      {editing !== undefined && <div key={editing?.id ?? 'new'}>{form(editing, () => setEditing(undefined))}</div>}
      <div className="filters mt">
        <SearchFilter value={list.filters.keyword} onChange={(v) => list.set('keyword', v)} />
      </div>
      <FormError error={del.error} />
      <PagedTable
        caption={title}
        columns={[...columns, actions]}
        query={q as never}
        list={list}
        rowKey={(item: T) => item.id}
        noMatch={t('resources.noMatch')}
        empty={empty}
      />
    </div>
  );
}

/**
 * A resource's form: react-hook-form checked by the contract's input `schema` before sending, the
 * server's refusals worded under their fields (`labels`: the form's fields as labelled), POST for a
 * new entry and PUT for an edited one. `children` are the fields (ui/form/fields).
 */
export function ResourceForm<S extends z.ZodType<FieldValues, FieldValues>>({
  schema,
  api,
  item,
  title,
  defaults,
  labels,
  aliases,
  toBody,
  onDone,
  children,
}: {
  schema: S;
  api: ResourceApi;
  item: Entry | null;
  title: string;
  defaults: DefaultValues<z.input<S>>;
  labels: Record<string, string>;
  aliases?: Record<string, string>;
  /** The body sent, from the checked values (an edited entry keeps what the form does not show). */
  toBody?(values: z.output<S>): unknown;
  onDone(): void;
  children: ReactNode;
}) {
  const add = useApiMutation(api.create, { invalidates: [api.invalidates] });
  const change = useApiMutation(api.update, { invalidates: [api.invalidates] });
  const form = useZodForm(schema, { defaultValues: defaults });
  const { submit, error } = useSending(form.handleSubmit, async (values: z.output<S>) => {
    const body = toBody ? toBody(values) : values;
    if (item) await change.mutateAsync({ params: { id: item.id }, body } as never);
    else await add.mutateAsync({ body } as never);
    onDone();
  });
  const problem = useServerProblems(form, error, labels, aliases);
  return (
    <FormCard form={form} title={title} onSubmit={submit} onCancel={onDone} problem={problem}>
      <div className="form-grid">{children}</div>
    </FormCard>
  );
}
