import { useTranslation } from 'react-i18next';
import { CompanyKind, CountryCode, type Company } from '@corridor/contracts/companies';
import { useApiQuery } from '../api/hooks';
import { useFormat } from '../i18n/format';
import type { Column } from '../ui/DataTable';
import { ChoiceFilter, SearchFilter } from '../ui/list/Filters';
import { PagedTable } from '../ui/list/PagedTable';
import { searchText, usePagedFilters } from '../ui/list/usePagedFilters';
import { companiesList } from '../ui/lookups';

const LIMIT = 50;

/** The companies registered on the platform, by country and kind, with their registry numbers. */
export default function CompaniesScreen() {
  const { t } = useTranslation();
  const f = useFormat();
  const list = usePagedFilters({ country: '' as CountryCode | '', kind: '' as CompanyKind | '', name: '' }, LIMIT);
  const { country, kind, name } = list.filters;
  const q = useApiQuery(companiesList, { query: { limit: list.limit, offset: list.offset, country: country || undefined, kind: kind || undefined, q: searchText(name) } });
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
        <SearchFilter value={name} onChange={(v) => list.set('name', v)} />
        <ChoiceFilter label={t('geofences.country')} value={country} options={CountryCode.options} onChange={(v) => list.set('country', v)} />
        <ChoiceFilter label={t('companies.kind')} value={kind} options={CompanyKind.options} optionLabel={(o) => t(`companies.kinds.${o}`)} onChange={(v) => list.set('kind', v)} />
      </div>
      <PagedTable caption={t('companies.title')} columns={columns} query={q} list={list} rowKey={(c) => c.id} empty={{ title: t('companies.empty'), hint: t('common.clearFilters') }} />
    </div>
  );
}
