import { useMemo, useState } from 'react';
import { z } from 'zod';
import { useTranslation } from 'react-i18next';
import { Role } from '@corridor/contracts/roles';
import { Password, UserUpdate, usersEndpoints, type User } from '@corridor/contracts/users';
import { endpoint } from '../api/endpoint';
import { useApiMutation, useApiQuery } from '../api/hooks';
import { useUser } from '../session/useUser';
import type { Column } from '../ui/DataTable';
import { SearchFilter } from '../ui/list/Filters';
import { PagedTable } from '../ui/list/PagedTable';
import { searchText, usePagedFilters } from '../ui/list/usePagedFilters';
import { FormError } from '../ui/forms';
import { CheckboxesField, TextField } from '../ui/form/fields';
import { FormCard, useSending } from '../ui/form/FormCard';
import { CompanyField } from '../ui/form/pickers';
import { useServerProblems } from '../ui/form/server-errors';
import { useZodForm } from '../ui/form/useZodForm';
import { useCompanies } from '../ui/lookups';

const list = endpoint(usersEndpoints, 'users.list');
const create = endpoint(usersEndpoints, 'users.create');
const update = endpoint(usersEndpoints, 'users.update');
const remove = endpoint(usersEndpoints, 'users.delete');
const unlock = endpoint(usersEndpoints, 'users.lock.delete');
const ROLES = Role.options.filter((r) => r !== 'device');
const LIMIT = 50;

/** Users and their roles: create, change roles or company, disable, lift a sign-in lock, delete. */
export default function UsersScreen() {
  const { t } = useTranslation();
  const me = useUser();
  const companies = useCompanies();
  const users = usePagedFilters({ keyword: '' }, LIMIT);
  const [editing, setEditing] = useState<User | 'new' | null>(null);
  const q = useApiQuery(list, { query: { limit: users.limit, offset: users.offset, keyword: searchText(users.filters.keyword) } });
  const save = useApiMutation(update, { invalidates: ['users.'] });
  const del = useApiMutation(remove, { invalidates: ['users.'] });
  const [unlocked, setUnlocked] = useState<User | null>(null);
  const lift = useApiMutation(unlock, { invalidates: [] });
  const unlockUser = (u: User) => lift.mutate({ params: { id: u.id } }, { onSuccess: () => setUnlocked(u) });
  const toggle = (u: User) => save.mutate({ params: { id: u.id }, body: { ...u, disabled: !u.disabled, password: undefined } });
  const columns: Column<User>[] = [
    { key: 'name', header: t('devices.name'), cell: (u) => u.name },
    { key: 'email', header: t('users.email'), cell: (u) => u.email },
    { key: 'roles', header: t('users.roles'), cell: (u) => u.roles.map((r) => t(`roles.${r}`)).join(', ') },
    { key: 'company', header: t('journeys.company'), cell: (u) => companies.name(u.companyId) },
    {
      key: 'state',
      header: t('shipments.status'),
      cell: (u) =>
        u.disabled ? (
          <span className="pill pill-bad">{t('users.disabled')}</span>
        ) : (
          <span className="pill pill-ok">{t('users.enabled')}</span>
        ),
    },
    {
      key: 'actions',
      header: <span className="sr-only">{t('common.actions')}</span>,
      cell: (u) => (
        <span className="toolbar">
          <button type="button" className="btn btn-small" aria-label={t('users.editTitle', { name: u.name })} onClick={() => setEditing(u)}>
            {t('users.edit')}
          </button>
          {u.id !== me.id && (
            <>
              <button type="button" className="btn btn-small" onClick={() => toggle(u)}>
                {u.disabled ? t('users.enable') : t('users.disable')}
              </button>
              <button type="button" className="btn btn-small" title={t('users.unlockHint')} onClick={() => unlockUser(u)}>
                {t('users.unlock')}
              </button>
              <button
                type="button"
                className="btn btn-small btn-danger"
                onClick={() => window.confirm(t('users.confirmDelete', { name: u.name })) && del.mutate({ params: { id: u.id } })}
              >
                {t('users.delete')}
              </button>
            </>
          )}
        </span>
      ),
    },
  ];
  return (
    <div className="screen">
      <div className="screen-head">
        <h1>{t('users.title')}</h1>
        <button type="button" className="btn btn-primary" onClick={() => setEditing('new')}>
          {t('users.create')}
        </button>
      </div>
      {editing && (
        <UserForm key={editing === 'new' ? 'new' : editing.id} user={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />
      )}
      <div className="filters mt">
        <SearchFilter value={users.filters.keyword} onChange={(v) => users.set('keyword', v)} />
      </div>
      {unlocked && (
        <p className="form-ok" role="status">
          {t('users.unlocked', { name: unlocked.name })}
        </p>
      )}
      <FormError error={save.error ?? del.error ?? lift.error} />
      <PagedTable
        caption={t('users.title')}
        columns={columns}
        query={q}
        list={users}
        rowKey={(u) => u.id}
        empty={{ title: t('users.empty'), hint: t('users.emptyHint') }}
      />
    </div>
  );
}

/** The form's values: the contract's user fields a person edits; a password only when it is set or changed. */
const Form = UserUpdate.pick({ name: true, email: true, companyId: true, roles: true }).extend({
  password: Password.or(z.literal('')),
  currentPassword: z.string().max(256),
});

/**
 * A user, new or edited, checked by the contract before it is sent: a new user needs a password;
 * changing one's own password or email needs the current one (the API refuses it otherwise). An
 * edited user keeps every field the form does not show.
 */
function UserForm({ user, onDone }: { user: User | null; onDone: () => void }) {
  const { t } = useTranslation();
  const add = useApiMutation(create, { invalidates: ['users.'] });
  const save = useApiMutation(update, { invalidates: ['users.'] });
  const me = useUser();
  const schema = useMemo(
    () =>
      Form.superRefine((v, ctx) => {
        if (!user && !v.password) ctx.addIssue({ code: 'custom', path: ['password'], message: 'required' });
        const own = user !== null && user.id === me.id && (v.password !== '' || v.email.trim().toLowerCase() !== user.email.toLowerCase());
        if (own && !v.currentPassword) ctx.addIssue({ code: 'custom', path: ['currentPassword'], message: 'required' });
      }),
    [user, me.id],
  );
  const form = useZodForm(schema, {
    defaultValues: {
      name: user?.name ?? '',
      email: user?.email ?? '',
      password: '',
      currentPassword: '',
      roles: user?.roles ?? ['dispatcher'],
      companyId: user?.companyId ?? null,
    },
    refinements: { password: t('form.required'), currentPassword: t('users.currentPasswordNeeded') },
  });
  const [password, email] = form.watch(['password', 'email']);
  // changing one's own password or email needs the current password (the API answers 400 without it)
  const ownPassword = user !== null && user.id === me.id && (password !== '' || email.trim().toLowerCase() !== user.email.toLowerCase());
  const labels = {
    name: t('devices.name'),
    email: t('users.email'),
    password: user ? t('users.newPassword') : t('signIn.password'),
    currentPassword: t('users.currentPassword'),
    companyId: t('journeys.company'),
    roles: t('users.roles'),
  };
  const { submit, error } = useSending(form.handleSubmit, async (v: z.output<typeof Form>) => {
    if (user) {
      await save.mutateAsync({
        params: { id: user.id },
        body: {
          ...user,
          name: v.name,
          email: v.email,
          roles: v.roles,
          companyId: v.companyId,
          password: v.password || undefined,
          currentPassword: ownPassword ? v.currentPassword : undefined,
        },
      });
    } else {
      await add.mutateAsync({ body: { name: v.name, email: v.email, password: v.password, roles: v.roles, companyId: v.companyId } });
    }
    onDone();
  });
  const problem = useServerProblems(form, error, labels);
  return (
    <FormCard
      form={form}
      title={user ? t('users.editTitle', { name: user.name }) : t('users.create')}
      onSubmit={submit}
      onCancel={onDone}
      problem={problem}
    >
      <div className="form-grid">
        <TextField name="name" label={labels.name} required maxLength={128} autoComplete="off" />
        <TextField name="email" label={labels.email} type="email" required maxLength={254} autoComplete="off" />
        <TextField
          name="password"
          label={labels.password}
          hint={t('users.passwordHint')}
          type="password"
          autoComplete="new-password"
          required={!user}
          maxLength={256}
        />
        {ownPassword && (
          <TextField
            name="currentPassword"
            label={labels.currentPassword}
            type="password"
            autoComplete="current-password"
            required
            maxLength={256}
          />
        )}
        <CompanyField name="companyId" label={labels.companyId} empty={t('users.noCompany')} />
      </div>
      <CheckboxesField name="roles" label={labels.roles} options={ROLES.map((r) => ({ value: r, label: t(`roles.${r}`) }))} />
    </FormCard>
  );
}
