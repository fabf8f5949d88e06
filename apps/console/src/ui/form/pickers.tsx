import { useId, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useFleetDevices } from '../../live/queries';
import { useCompanies, useCompanyNames, useGroups } from '../lookups';
import { SelectField } from './fields';

/**
 * The pickers screens share: a company, a group (fields of a react-hook-form form) and the devices
 * of a report or a rule (devices by search, all shown at once, and groups). One each, so a list
 * the API answers is read and shown one way everywhere.
 */
interface PickerField {
  name: string;
  label: ReactNode;
  hint?: ReactNode;
  /** Required: the empty choice is left undefined (the schema says to fill it in); else it is null ("none"). */
  required?: boolean;
  /** What the empty choice reads ("None", "No company", "Choose…"). */
  empty?: ReactNode;
}

/** One of the companies the user may see (their own for a company user), as its id. */
export function CompanyField({ empty, required, ...frame }: PickerField) {
  const { t } = useTranslation();
  const companies = useCompanies();
  const options = (companies.data?.items ?? []).map((c) => ({ value: c.id, label: c.name }));
  return (
    <SelectField
      {...frame}
      required={required}
      numeric
      emptyIsNull={!required}
      empty={empty ?? t(required ? 'common.choose' : 'common.none')}
      options={options}
    />
  );
}

/**
 * Any company on the platform, as its id (a complaint may name any): every company by name, a
 * company user's own left out (`excludeOwn`).
 */
export function AnyCompanyField({ empty, required, excludeOwn, ...frame }: PickerField & { excludeOwn?: number | null }) {
  const { t } = useTranslation();
  const names = useCompanyNames();
  const options = (names.data?.items ?? []).filter((c) => c.id !== excludeOwn).map((c) => ({ value: c.id, label: c.name }));
  return (
    <SelectField
      {...frame}
      required={required}
      numeric
      emptyIsNull={!required}
      empty={empty ?? t(required ? 'common.choose' : 'common.none')}
      options={options}
    />
  );
}

/** One of the device groups the user may see, as its id (none: null). */
export function GroupField({ empty, required, ...frame }: PickerField) {
  const { t } = useTranslation();
  const groups = useGroups();
  const options = groups.items.map((g) => ({ value: g.id, label: g.name }));
  return (
    <SelectField
      {...frame}
      required={required}
      numeric
      emptyIsNull={!required}
      empty={empty ?? t(required ? 'common.choose' : 'common.none')}
      options={options}
    />
  );
}

export interface DeviceChoice {
  deviceIds: number[];
  groupIds: number[];
}

/**
 * Devices and groups to report on: a search over name and tracker id, "select all shown", a clear
 * button and the groups, with a count of what is chosen read out as it changes.
 */
export function DevicesPicker({ label, value, onChange }: { label: ReactNode; value: DeviceChoice; onChange(next: DeviceChoice): void }) {
  const { t } = useTranslation();
  const devices = useFleetDevices();
  const groups = useGroups();
  const [search, setSearch] = useState('');
  const id = useId();
  const all = useMemo(() => (devices.data ?? []).slice().sort((a, b) => a.name.localeCompare(b.name)), [devices.data]);
  const needle = search.trim().toLowerCase();
  const shown = needle ? all.filter((d) => d.name.toLowerCase().includes(needle) || d.uniqueId.toLowerCase().includes(needle)) : all;
  const chosen = new Set(value.deviceIds);
  const chosenGroups = new Set(value.groupIds);
  const toggle = (set: Set<number>, item: number, on: boolean) => {
    const next = new Set(set);
    if (on) next.add(item);
    else next.delete(item);
    return [...next];
  };
  return (
    <fieldset className="field field-group picker">
      <legend>{label}</legend>
      <div className="picker-tools">
        <label className="sr-only" htmlFor={`${id}-search`}>
          {t('pickers.search')}
        </label>
        <input
          id={`${id}-search`}
          type="search"
          value={search}
          placeholder={t('pickers.searchHint')}
          onChange={(e) => setSearch(e.target.value)}
        />
        <button
          type="button"
          className="btn btn-small"
          disabled={!shown.length}
          onClick={() => onChange({ ...value, deviceIds: [...new Set([...value.deviceIds, ...shown.map((d) => d.id)])] })}
        >
          {t('pickers.selectShown', { count: shown.length })}
        </button>
        <button
          type="button"
          className="btn btn-small"
          disabled={!value.deviceIds.length && !value.groupIds.length}
          onClick={() => onChange({ deviceIds: [], groupIds: [] })}
        >
          {t('pickers.clear')}
        </button>
      </div>
      <div className="picker-list" role="group" aria-label={t('reports.devices')}>
        {shown.map((d) => (
          <label key={d.id} className="check">
            <input
              type="checkbox"
              checked={chosen.has(d.id)}
              onChange={(e) => onChange({ ...value, deviceIds: toggle(chosen, d.id, e.target.checked) })}
            />
            {d.name} <span className="muted mono small">{d.uniqueId}</span>
          </label>
        ))}
        {!shown.length && <p className="muted small">{all.length ? t('pickers.noMatch') : t('pickers.noneLoaded')}</p>}
      </div>
      <div className="picker-list picker-groups" role="group" aria-label={t('pickers.groups')}>
        <span className="small">{t('pickers.groups')}</span>
        {groups.items.map((g) => (
          <label key={g.id} className="check">
            <input
              type="checkbox"
              checked={chosenGroups.has(g.id)}
              onChange={(e) => onChange({ ...value, groupIds: toggle(chosenGroups, g.id, e.target.checked) })}
            />
            {g.name}
          </label>
        ))}
        {!groups.isPending && !groups.items.length && <p className="muted small">{t('pickers.noGroups')}</p>}
      </div>
      <p className="muted small" aria-live="polite">
        {t('pickers.chosen', { devices: value.deviceIds.length, total: all.length, groups: value.groupIds.length })}
      </p>
    </fieldset>
  );
}
