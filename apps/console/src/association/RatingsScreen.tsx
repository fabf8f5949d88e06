import { useTranslation } from 'react-i18next';
import { RatingGrade, type CompanyRating } from '@corridor/contracts/ratings';
import { useApiQuery } from '../api/hooks';
import { useFormat } from '../i18n/format';
import { BarChartCard } from '../ui/charts/BarChartCard';
import type { Column } from '../ui/DataTable';
import { ChoiceFilter } from '../ui/list/Filters';
import { PagedTable } from '../ui/list/PagedTable';
import { usePagedFilters } from '../ui/list/usePagedFilters';
import { useCompanies } from '../ui/lookups';
import { PeriodPicker, usePeriod } from '../ui/PeriodPicker';
import { ErrorState } from '../ui/states';
import { ratingsList, ratingsStats } from './association';

const pct = (s: number | null | undefined) => (s === null || s === undefined ? null : Math.round(s * 100));

/** Company ratings for a period: the grade spread, averages per component, and every company's score and why. */
export default function RatingsScreen() {
  const { t } = useTranslation();
  const f = useFormat();
  const [period, setPeriod] = usePeriod(90);
  const companies = useCompanies();
  const ratings = usePagedFilters({ grade: '' as RatingGrade | '' });
  const { grade } = ratings.filters;
  const stats = useApiQuery(ratingsStats, { query: period });
  const list = useApiQuery(ratingsList, { query: { ...period, limit: ratings.limit, offset: ratings.offset, grade: grade || undefined } });
  const columns: Column<CompanyRating>[] = [
    { key: 'company', header: t('journeys.company'), cell: (r) => r.companyName ?? companies.name(r.companyId) },
    {
      key: 'grade',
      header: t('ratings.grade'),
      cell: (r) => <span className={`pill ${r.grade <= 'B' ? 'pill-ok' : r.grade === 'C' ? 'pill-warn' : 'pill-bad'}`}>{r.grade}</span>,
    },
    { key: 'score', header: t('ratings.score'), numeric: true, cell: (r) => f.number(r.score, 1) },
    {
      key: 'onTime',
      header: t('ratings.onTime'),
      numeric: true,
      cell: (r) => `${r.components.onTimeDelivery.onTime}/${r.components.onTimeDelivery.delivered}`,
    },
    { key: 'flags', header: t('dashboards.flags'), numeric: true, cell: (r) => r.components.journeyFlags.flags },
    { key: 'complaints', header: t('ratings.complaintsUpheld'), numeric: true, cell: (r) => r.components.complaints.upheld },
    { key: 'sanctions', header: t('dashboards.sanctions'), numeric: true, cell: (r) => r.components.sanctions.total },
  ];
  const s = stats.data;
  return (
    <div className="screen">
      <div className="screen-head">
        <h1>{t('ratings.title')}</h1>
      </div>
      <PeriodPicker value={period} onChange={(p) => (ratings.setOffset(0), setPeriod(p))} />
      {/* figures the server could not give are said (once: a refused list says it below) */}
      {stats.error && !list.error && <ErrorState error={stats.error} retry={() => void stats.refetch()} />}
      {s && (
        <div className="stack mt">
          <div className="cards">
            <div className="stat">
              <strong>{f.number(s.averageScore, 1)}</strong>
              <span>{t('ratings.average')}</span>
            </div>
            <div className="stat">
              <strong>{f.number(s.medianScore, 1)}</strong>
              <span>{t('ratings.median')}</span>
            </div>
            <div className="stat">
              <strong>{f.number(s.companies)}</strong>
              <span>{t('dashboards.companies')}</span>
            </div>
            <div className="stat">
              <strong>{f.number(s.totals.flags)}</strong>
              <span>{t('dashboards.flags')}</span>
            </div>
          </div>
          <div className="charts">
            <BarChartCard
              title={t('ratings.byGrade')}
              data={RatingGrade.options.map((g) => ({ grade: g, n: s.byGrade[g] ?? 0 }))}
              x="grade"
              xTitle={t('chart.grade')}
              series={[{ key: 'n', label: t('dashboards.companies') }]}
            />
            <BarChartCard
              title={t('ratings.components')}
              data={(['onTimeDelivery', 'journeyFlags', 'complaints', 'sanctions'] as const).map((k) => ({
                c: t(`ratings.component.${k}`),
                score: pct(s.averageComponentScores[k]) ?? 0,
              }))}
              x="c"
              xTitle={t('chart.component')}
              series={[{ key: 'score', label: t('ratings.score') }]}
            />
          </div>
        </div>
      )}
      <div className="filters mt">
        <ChoiceFilter label={t('ratings.grade')} value={grade} options={RatingGrade.options} onChange={(v) => ratings.set('grade', v)} />
      </div>
      <PagedTable
        caption={t('ratings.title')}
        columns={columns}
        query={list}
        list={ratings}
        rowKey={(r) => r.companyId}
        empty={{ title: t('ratings.empty'), hint: t('ratings.emptyHint') }}
      />
    </div>
  );
}
