import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ComplianceDashboard } from '@corridor/contracts/dashboards';
import { useApiQuery } from '../api/hooks';
import { useFormat } from '../i18n/format';
import { BarChartCard } from '../ui/charts/BarChartCard';
import { useCompanies } from '../ui/lookups';
import { PeriodPicker, usePeriod } from '../ui/PeriodPicker';
import { Empty, ErrorState, Loading } from '../ui/states';
import { Tabs } from '../ui/Tabs';
import { complianceKenya, complianceTanzania } from './association';

type Country = 'KE' | 'TZ';

/** The Kenya and Tanzania compliance dashboards as charts, for a chosen period. */
export default function DashboardsScreen() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const country: Country = params.get('country') === 'TZ' ? 'TZ' : 'KE';
  const [period, setPeriod] = usePeriod(30);
  const q = useApiQuery(country === 'KE' ? complianceKenya : complianceTanzania, { query: { from: period.from, to: period.to, top: 10 } });
  return (
    <div className="screen">
      <div className="screen-head">
        <h1>{t('dashboards.title')}</h1>
      </div>
      <Tabs
        label={t('dashboards.title')}
        selected={country}
        onSelect={(c) => setParams({ country: c }, { replace: true })}
        tabs={[
          { key: 'KE', label: t('dashboards.kenya') },
          { key: 'TZ', label: t('dashboards.tanzania') },
        ]}
      />
      <div id={`panel-${country}`} role="tabpanel" aria-labelledby={`tab-${country}`}>
        <PeriodPicker value={period} onChange={setPeriod} />
        {q.isPending ? (
          <Loading />
        ) : q.error || !q.data ? (
          <ErrorState error={q.error} retry={() => void q.refetch()} />
        ) : (
          <Dashboard d={q.data} />
        )}
      </div>
    </div>
  );
}

function Dashboard({ d }: { d: ComplianceDashboard }) {
  const { t } = useTranslation();
  const f = useFormat();
  const companies = useCompanies();
  const [flagTypes, weeks] = useMemo(() => {
    const types = [...new Set(d.flagsByTypeAndWeek.items.map((i) => i.flagType))];
    const byWeek = new Map<string, Record<string, number | string>>();
    for (const i of d.flagsByTypeAndWeek.items) {
      const row = byWeek.get(i.weekStart) ?? { week: i.weekStart };
      row[i.flagType] = i.count;
      byWeek.set(i.weekStart, row);
    }
    return [types, [...byWeek.values()].sort((a, b) => String(a.week).localeCompare(String(b.week)))];
  }, [d]);
  return (
    <div className="stack mt">
      <div className="cards">
        <div className="stat">
          <strong>{f.number(d.activeJourneys.active)}</strong>
          <span>{t('dashboards.activeJourneys')}</span>
        </div>
        <div className="stat">
          <strong>{f.number(d.activeJourneys.trucksReporting)}</strong>
          <span>{t('dashboards.trucksReporting')}</span>
        </div>
        <div className="stat">
          <strong>{f.number(d.flagsByTypeAndWeek.total)}</strong>
          <span>{t('dashboards.flags')}</span>
        </div>
        <div className="stat">
          <strong>{f.number(d.certificates.pending)}</strong>
          <span>{t('dashboards.certificatesPending')}</span>
        </div>
        <div className="stat">
          <strong>{f.number(d.complaintsOpen.open + d.complaintsOpen.underReview)}</strong>
          <span>{t('dashboards.complaintsOpen')}</span>
        </div>
        <div className="stat">
          <strong>{f.number(d.companies)}</strong>
          <span>{t('dashboards.companies')}</span>
        </div>
      </div>
      <div className="charts">
        {weeks.length ? (
          <BarChartCard
            title={t('dashboards.flagsByWeek')}
            data={weeks}
            x="week"
            xTitle={t('chart.week')}
            stacked
            series={flagTypes.map((k) => ({ key: k, label: t(`flagType.${k}` as 'flagType.overspeed', { defaultValue: k }) }))}
            xLabel={(v) => f.date(String(v))}
          />
        ) : (
          <Empty title={t('dashboards.noFlags')} />
        )}
        <BarChartCard
          title={t('dashboards.certificates')}
          data={[
            { k: t('dashboards.pending'), n: d.certificates.pending },
            { k: t('status.approved'), n: d.certificates.approved },
            { k: t('status.rejected'), n: d.certificates.rejected },
          ]}
          x="k"
          xTitle={t('chart.status')}
          series={[{ key: 'n', label: t('common.total') }]}
        />
        {d.borderDwell.items.length > 0 && (
          <BarChartCard
            title={t('dashboards.borderDwell')}
            data={d.borderDwell.items.map((b) => ({
              name: b.name,
              avg: Math.round(b.averageDwellSeconds / 60),
              median: Math.round(b.medianDwellSeconds / 60),
            }))}
            x="name"
            xTitle={t('chart.border')}
            series={[
              { key: 'avg', label: t('dashboards.averageMinutes') },
              { key: 'median', label: t('dashboards.medianMinutes') },
            ]}
          />
        )}
      </div>
      <section className="card">
        <h2>{t('dashboards.mostViolations')}</h2>
        {d.companiesWithMostViolations.items.length === 0 ? (
          <p className="muted">{t('dashboards.noViolations')}</p>
        ) : (
          <div className="table-wrap">
            <table className="data">
              <thead>
                <tr>
                  <th scope="col">{t('journeys.company')}</th>
                  <th className="num" scope="col">
                    {t('dashboards.flags')}
                  </th>
                  <th className="num" scope="col">
                    {t('nav.complaints')}
                  </th>
                  <th className="num" scope="col">
                    {t('dashboards.sanctions')}
                  </th>
                  <th className="num" scope="col">
                    {t('common.total')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {d.companiesWithMostViolations.items.map((c) => (
                  <tr key={c.companyId}>
                    <td>{c.name ?? companies.name(c.companyId)}</td>
                    <td className="num">{c.flags}</td>
                    <td className="num">{c.complaints}</td>
                    <td className="num">{c.sanctions}</td>
                    <td className="num">{c.total}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <p className="small muted">
        {t('dashboards.generated', { time: f.dateTime(d.generatedAt), from: f.date(d.period.from), to: f.date(d.period.to) })}
      </p>
    </div>
  );
}
