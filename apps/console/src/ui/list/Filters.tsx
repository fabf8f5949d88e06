import { useTranslation } from 'react-i18next';
import { useCompanies } from '../lookups';

/** A filter offering "All" and each option; the value '' means all. */
export function ChoiceFilter<T extends string>({
  label,
  value,
  options,
  optionLabel,
  onChange,
}: {
  label: string;
  value: T | '';
  options: readonly T[];
  optionLabel?: (o: T) => string;
  onChange: (v: T | '') => void;
}) {
  const { t } = useTranslation();
  return (
    <label className="field">
      <span>{label}</span>
      <select value={value} onChange={(e) => onChange(e.target.value as T | '')}>
        <option value="">{t('common.all')}</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {optionLabel ? optionLabel(o) : o}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A search box filter. */
export function SearchFilter({
  label,
  value,
  placeholder,
  onChange,
}: {
  label?: string;
  value: string;
  placeholder?: string;
  onChange: (v: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <label className="field">
      <span>{label ?? t('common.search')}</span>
      <input type="search" value={value} placeholder={placeholder} onChange={(e) => onChange(e.target.value)} />
    </label>
  );
}

/** The companies the user may see, by name (the value is the company id as text). */
export function CompanyFilter({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const { t } = useTranslation();
  const companies = useCompanies();
  return (
    <ChoiceFilter
      label={t('journeys.company')}
      value={value}
      options={(companies.data?.items ?? []).map((c) => String(c.id))}
      optionLabel={(id) => companies.name(Number(id))}
      onChange={onChange}
    />
  );
}
