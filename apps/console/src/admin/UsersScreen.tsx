import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Role } from '@corridor/contracts/roles';
import { usersEndpoints, type User } from '@corridor/contracts/users';
import { endpoint } from '../api/endpoint';
import { useApiMutation, useApiQuery } from '../api/hooks';
import { useUser } from '../session/useUser';
import type { Column } from '../ui/DataTable';
import { SearchFilter } from '../ui/list/Filters';
import { PagedTable } from '../ui/list/PagedTable';
import { searchText, usePagedFilters } from '../ui/list/usePagedFilters';
import { Field, FormError, useFieldErrors } from '../ui/forms';
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
    { key: 'state', header: t('shipments.status'), cell: (u) => (u.disabled ? <span className="pill pill-bad">{t('users.disabled')}</span> : <span className="pill pill-ok">{t('users.enabled')}</span>) },
    {
      key: 'actions',
      header: <span className="sr-only">{t('common.actions')}</span>,
      cell: (u) => (
        <span className="toolbar">
          <button type="button" className="btn btn-small" onClick={() => setEditing(u)}>
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
              <button type="button" className="btn btn-small btn-danger" onClick={() => window.confirm(t('users.confirmDelete', { name: u.name })) && del.mutate({ params: { id: u.id } })}>
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
      {editing && <UserForm user={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />}
      <div className="filters mt">
        <SearchFilter value={users.filters.keyword} onChange={(v) => users.set('keyword', v)} />
      </div>
      {unlocked && (
        <p className="form-ok" role="status">
          {t('users.unlocked', { name: unlocked.name })}
        </p>
      )}
      <FormError error={save.error ?? del.error ?? lift.error} />
      <PagedTable caption={t('users.title')} columns={columns} query={q} list={users} rowKey={(u) => u.id} empty={{ title: t('users.empty'), hint: t('users.emptyHint') }} />
    </div>
  );
}

function UserForm({ user, onDone }: { user: User | null; onDone: () => void }) {
  const { t } = useTranslation();
  const companies = useCompanies();
  const add = useApiMutation(create, { invalidates: ['users.'] });
  const save = useApiMutation(update, { invalidates: ['users.'] });
  const me = useUser();
  const [v, setV] = useState({ name: user?.name ?? '', email: user?.email ?? '', password: '', currentPassword: '', roles: user?.roles ?? (['dispatcher'] as Role[]), companyId: user?.companyId ? String(user.companyId) : '' });
  const m = user ? save : add;
  const errors = useFieldErrors(m.error);
  // changing one's own password or email needs the current password (the API answers 400 without it)
  const ownPassword = user !== null && user.id === me.id && (v.password !== '' || v.email.trim().toLowerCase() !== user.email.toLowerCase());
  const toggleRole = (r: Role) => setV((s) => ({ ...s, roles: s.roles.includes(r) ? s.roles.filter((x) => x !== r) : [...s.roles, r] }));
  async function submit(e: FormEvent) {
    e.preventDefault();
    const companyId = v.companyId ? Number(v.companyId) : null;
    const ok = user
      ? await save.mutateAsync({ params: { id: user.id }, body: { ...user, name: v.name.trim(), email: v.email.trim(), roles: v.roles, companyId, password: v.password || undefined, currentPassword: ownPassword ? v.currentPassword : undefined } }).then(() => true, () => false)
      : await add.mutateAsync({ body: { name: v.name.trim(), email: v.email.trim(), password: v.password, roles: v.roles, companyId } }).then(() => true, () => false);
    if (ok) onDone();
  }
  return (
    <form className="card" onSubmit={submit} aria-label={user ? t('users.edit') : t('users.create')}>
      <h2>{user ? t('users.editTitle', { name: user.name }) : t('users.create')}</h2>
      <div className="form-grid">
        <Field label={t('devices.name')} name="name" error={errors.name}>
          <input required value={v.name} onChange={(e) => setV({ ...v, name: e.target.value })} />
        </Field>
        <Field label={t('users.email')} name="email" error={errors.email}>
          <input type="email" required value={v.email} onChange={(e) => setV({ ...v, email: e.target.value })} />
        </Field>
        <Field label={user ? t('users.newPassword') : t('signIn.password')} name="password" error={errors.password} hint={t('users.passwordHint')}>
          <input type="password" autoComplete="new-password" minLength={8} required={!user} value={v.password} onChange={(e) => setV({ ...v, password: e.target.value })} />
        </Field>
        {ownPassword && (
          <Field label={t('users.currentPassword')} name="currentPassword" error={errors.currentPassword}>
            <input type="password" autoComplete="current-password" required value={v.currentPassword} onChange={(e) => setV({ ...v, currentPassword: e.target.value })} />
          </Field>
        )}
        <Field label={t('journeys.company')} name="companyId" error={errors.companyId}>
          <select value={v.companyId} onChange={(e) => setV({ ...v, companyId: e.target.value })}>
            <option value="">{t('users.noCompany')}</option>
            {(companies.data?.items ?? []).map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <fieldset>
        <legend>{t('users.roles')}</legend>
        <div className="chips">
          {ROLES.map((r) => (
            <label key={r} className="chip">
              <input type="checkbox" checked={v.roles.includes(r)} onChange={() => toggleRole(r)} /> {t(`roles.${r}`)}
            </label>
          ))}
        </div>
        {errors.roles && <small className="field-error">{errors.roles}</small>}
      </fieldset>
      <FormError error={m.error} />
      <div className="form-actions">
        <button type="button" className="btn" onClick={onDone}>
          {t('common.cancel')}
        </button>
        <button type="submit" className="btn btn-primary" disabled={m.isPending}>
          {t('common.save')}
        </button>
      </div>
    </form>
  );
}
