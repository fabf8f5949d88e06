import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CompanyKind, CountryCode, type Company } from '@corridor/contracts/companies';
import { useApiQuery } from '../api/hooks';
import { useFormat } from '../i18n/format';
import { DataTable, Pager, type Column } from '../ui/DataTable';
import { companiesList } from '../ui/lookups';

const LIMIT = 50;

/** The companies registered on the platform, by country and kind, with their registry numbers. */
export default function CompaniesScreen() {
  const { t } = useTranslation();
  const f = useFormat();
  const [country, setCountry] = useState<CountryCode | ''>('');
  const [kind, setKind] = useState<CompanyKind | ''>('');
  const [name, setName] = useState('');
  const [offset, setOffset] = useState(0);
  const q = useApiQuery(companiesList, { query: { limit: LIMIT, offset, country: country || undefined, kind: kind || undefined, q: name.trim() || undefined } });
  const columns: Column<Company>[] = [
    { key: 'name', header: t('devices.name'), cell: (c) => c.name },
    { key: 'kind', header: t('companies.kind'), cell: (c) => t(`companies.kinds.${c.kind}`) },
    { key: 'country', header: t('geofences.country'), cell: (c) => c.country },
    { key: 'reg', header: t('companies.registration'), cell: (c) => <span className="mono">{c.registrationNumber ?? '—'}</span> },
    { key: 'tax', header: t('companies.tax'), cell: (c) => <span className="mono">{c.taxPin ?? '—'}</span> },
    { key: 'since', header: t('companies.since'), cell: (c) => f.date(c.createdAt) },
  ];
  return (
    <div className="screen">
      <div className="screen-head">
        <h1>{t('companies.title')}</h1>
      </div>
      <div className="filters">
        <label className="field">
          <span>{t('common.search')}</span>
          <input type="search" value={name} onChange={(e) => (setOffset(0), setName(e.target.value))} />
        </label>
        <label className="field">
          <span>{t('geofences.country')}</span>
          <select value={country} onChange={(e) => (setOffset(0), setCountry(e.target.value as CountryCode | ''))}>
            <option value="">{t('common.all')}</option>
            {CountryCode.options.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{t('companies.kind')}</span>
          <select value={kind} onChange={(e) => (setOffset(0), setKind(e.target.value as CompanyKind | ''))}>
            <option value="">{t('common.all')}</option>
            {CompanyKind.options.map((k) => (
              <option key={k} value={k}>
                {t(`companies.kinds.${k}`)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <DataTable caption={t('companies.title')} columns={columns} rows={q.data?.items} rowKey={(c) => c.id} loading={q.isPending} error={q.error} retry={() => void q.refetch()} empty={{ title: t('companies.empty'), hint: t('common.clearFilters') }} />
      <Pager offset={offset} limit={LIMIT} total={q.data?.total} count={q.data?.items.length ?? 0} onChange={setOffset} />
    </div>
  );
}
