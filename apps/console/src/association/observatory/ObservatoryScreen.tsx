import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FormProvider } from 'react-hook-form';
import { ObservatoryQuery, type ObservatoryDwell, type ObservatoryStops, type ObservatoryTransit } from '@corridor/contracts/observatory';
import { urlOf } from '../../api/client';
import { isApiError } from '../../api/errors';
import { useApiQuery } from '../../api/hooks';
import { useFormat } from '../../i18n/format';
import { useSession } from '../../session/useSession';
import { BarChartCard } from '../../ui/charts/BarChartCard';
import { DataTable, type Column } from '../../ui/DataTable';
import { DateTimeField, SelectField } from '../../ui/form/fields';
import { useZodForm } from '../../ui/form/useZodForm';
import { useCompanies } from '../../ui/lookups';
import { ErrorState, Loading } from '../../ui/states';
import { Tabs } from '../../ui/Tabs';
import { ObservatoryMap } from './ObservatoryMap';
import { ObservatorySettingsCard } from './ObservatorySettingsCard';
import { observatoryDwell, observatoryMap, observatoryStops, observatoryTransit } from './observatory';

const DAY = 86_400_000;
const Filters = ObservatoryQuery.pick({ from: true, to: true, interval: true, corridor: true, direction: true, companyId: true });
type FilterValues = {
  from?: string;
  to?: string;
  interval: 'week' | 'month';
  corridor?: 'northern' | 'central';
  direction: 'forward' | 'reverse' | 'both';
  companyId?: number;
};
type Indicator = 'transit' | 'dwell' | 'stops';

/** The filters in the address (a view can be shared): a period of 12 weeks ending when the screen opened unless chosen. */
function filtersOf(params: URLSearchParams, now: string): FilterValues & { from: string; to: string } {
  const to = params.get('to') ?? now;
  const parsed = Filters.safeParse(Object.fromEntries(params));
  const v = parsed.success ? parsed.data : Filters.parse({});
  return { ...v, from: v.from ?? new Date(Date.parse(to) - 84 * DAY).toISOString(), to: v.to ?? to } as FilterValues & {
    from: string;
    to: string;
  };
}
const monthOf = (iso: string) => iso.slice(0, 7);

/**
 * The corridor observatory (issue 30): transit times between the corridors' places and end to
 * end, waits at border posts, weighbridges, ports and checkpoints, and stops outside authorized
 * places per 1,000 km, by week or month, from the fleet's own fixes. A map of the period, charts
 * over time, and a table that downloads as CSV or Excel. A company sees its own figures against the
 * other companies together; the association all of them, or one company against the rest.
 */
export default function ObservatoryScreen() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const [openedAt] = useState(() => new Date().toISOString());
  const filters = filtersOf(params, openedAt);
  const [indicator, setIndicator] = useState<Indicator>((params.get('show') as Indicator | null) ?? 'dwell');
  const query = { ...filters };
  const map = useApiQuery(observatoryMap, {
    query: { from: filters.from, to: filters.to, direction: filters.direction, corridor: filters.corridor, companyId: filters.companyId },
  });
  const apply = (v: FilterValues) => {
    const next = new URLSearchParams();
    for (const [k, val] of Object.entries(v)) if (val !== undefined && val !== '') next.set(k, String(val));
    next.set('show', indicator);
    setParams(next);
  };
  return (
    <div className="screen">
      <div className="screen-head">
        <h1>{t('observatory.title')}</h1>
      </div>
      <p className="muted">{t('observatory.intro')}</p>
      <FilterForm key={params.toString()} initial={filters} onSubmit={apply} />
      <section className="card stack mt" aria-labelledby="obs-map-title">
        <h2 id="obs-map-title">{t('observatory.mapTitle')}</h2>
        {map.isPending ? (
          <Loading />
        ) : isApiError(map.error) && map.error.code === 'VALIDATION_FAILED' ? (
          // the period (or a filter) refused: the figures below, asked with the same filters, say why, once
          <p className="muted">{t('observatory.mapNoPeriod')}</p>
        ) : map.error || !map.data ? (
          <ErrorState error={map.error} retry={() => void map.refetch()} />
        ) : (
          <ObservatoryMap overview={map.data} />
        )}
      </section>
      <div className="mt">
        <Tabs
          label={t('observatory.indicators')}
          selected={indicator}
          onSelect={(k) => {
            setIndicator(k);
            setParams(
              (p) => {
                p.set('show', k);
                return p;
              },
              { replace: true },
            );
          }}
          tabs={[
            { key: 'dwell', label: t('observatory.dwellTab') },
            { key: 'transit', label: t('observatory.transitTab') },
            { key: 'stops', label: t('observatory.stopsTab') },
          ]}
        />
        <div id={`panel-${indicator}`} role="tabpanel" aria-labelledby={`tab-${indicator}`} className="stack mt">
          {indicator === 'dwell' && <DwellPanel query={query} />}
          {indicator === 'transit' && <TransitPanel query={query} />}
          {indicator === 'stops' && <StopsPanel query={query} />}
        </div>
      </div>
      <ObservatorySettingsCard />
    </div>
  );
}

function FilterForm({ initial, onSubmit }: { initial: FilterValues & { from: string; to: string }; onSubmit: (v: FilterValues) => void }) {
  const { t } = useTranslation();
  const session = useSession();
  const companies = useCompanies();
  const ownCompany = session.user?.companyId ?? null;
  const schema = useMemo(
    () =>
      Filters.refine((q) => !q.from || !q.to || Date.parse(q.from) < Date.parse(q.to), {
        path: ['to'],
        message: t('observatory.toAfterFrom'),
      }),
    [t],
  );
  const form = useZodForm(schema, { defaultValues: initial });
  const [month, setMonth] = useState(monthOf(initial.from));
  const chooseMonth = (m: string) => {
    setMonth(m);
    if (!/^\d{4}-\d{2}$/.test(m)) return;
    const [y, mo] = m.split('-').map(Number) as [number, number];
    form.setValue('from', new Date(Date.UTC(y, mo - 1, 1)).toISOString(), { shouldValidate: true });
    form.setValue('to', new Date(Date.UTC(y, mo, 1)).toISOString(), { shouldValidate: true });
    form.setValue('interval', 'week');
  };
  return (
    <FormProvider {...form}>
      <form
        className="card obs-filters"
        aria-label={t('observatory.filters')}
        onSubmit={form.handleSubmit((v) => onSubmit(v as FilterValues))}
        noValidate
      >
        <label className="field">
          <span>{t('observatory.month')}</span>
          <input type="month" value={month} onChange={(e) => chooseMonth(e.target.value)} data-testid="obs-month" />
        </label>
        <DateTimeField name="from" label={t('common.from')} required />
        <DateTimeField name="to" label={t('common.to')} required />
        <SelectField
          name="interval"
          label={t('observatory.interval')}
          options={[
            { value: 'week', label: t('observatory.byWeek') },
            { value: 'month', label: t('observatory.byMonth') },
          ]}
        />
        <SelectField
          name="corridor"
          label={t('observatory.corridor')}
          empty={t('observatory.bothCorridors')}
          options={[
            { value: 'northern', label: t('corridor.northern') },
            { value: 'central', label: t('corridor.central') },
          ]}
        />
        <SelectField
          name="direction"
          label={t('observatory.direction')}
          options={[
            { value: 'both', label: t('observatory.way.both') },
            { value: 'forward', label: t('observatory.way.forward') },
            { value: 'reverse', label: t('observatory.way.reverse') },
          ]}
        />
        {ownCompany === null && (
          <SelectField
            name="companyId"
            label={t('observatory.company')}
            numeric
            empty={t('observatory.allCompanies')}
            options={(companies.data?.items ?? []).filter((c) => c.kind === 'transporter').map((c) => ({ value: c.id, label: c.name }))}
          />
        )}
        <button type="submit" className="btn btn-primary" data-testid="obs-apply">
          {t('observatory.apply')}
        </button>
      </form>
    </FormProvider>
  );
}

type Query = FilterValues & { from: string; to: string };

/** Who a row's figures are: everyone, the company chosen (or one's own), or the other companies together. */
function useSeriesName(companyId: number | null) {
  const { t } = useTranslation();
  const companies = useCompanies();
  const session = useSession();
  const own = session.user?.companyId ?? null;
  return (series: 'all' | 'company' | 'others') =>
    series === 'all'
      ? t('observatory.series.all')
      : series === 'others'
        ? t('observatory.series.others')
        : own !== null
          ? t('observatory.series.own')
          : companies.name(companyId);
}

function Downloads({ href, what }: { href: (format: 'csv' | 'xlsx') => string; what: string }) {
  const { t } = useTranslation();
  return (
    <span className="toolbar">
      <a className="btn" href={href('csv')} download data-testid="obs-csv">
        {t('observatory.downloadCsv', { what })}
      </a>
      <a className="btn" href={href('xlsx')} download data-testid="obs-xlsx">
        {t('observatory.downloadXlsx', { what })}
      </a>
    </span>
  );
}

/** Rows of one figure by period, a column per name (a place or segment and series): what the charts draw. */
function byPeriod<T extends { periodStart: string }>(items: readonly T[], name: (i: T) => string | null, value: (i: T) => number | null) {
  const names: string[] = [];
  const rows = new Map<string, Record<string, string | number>>();
  for (const i of items) {
    const n = name(i);
    const v = value(i);
    if (n === null || v === null) continue;
    if (!names.includes(n)) names.push(n);
    const row = rows.get(i.periodStart) ?? { period: i.periodStart };
    row[n] = v;
    rows.set(i.periodStart, row);
  }
  return { names, rows: [...rows.values()].sort((a, b) => String(a.period).localeCompare(String(b.period))) };
}

function Withheld({ count, minTrucks }: { count: number; minTrucks: number }) {
  const { t } = useTranslation();
  return count > 0 ? <p className="small muted">{t('observatory.withheld', { count, minTrucks })}</p> : null;
}

function DwellPanel({ query }: { query: Query }) {
  const { t } = useTranslation();
  const f = useFormat();
  const q = useApiQuery(observatoryDwell, { query });
  const seriesName = useSeriesName(query.companyId ?? null);
  if (q.isPending) return <Loading />;
  if (q.error || !q.data) return <ErrorState error={q.error} retry={() => void q.refetch()} />;
  const items = q.data.items;
  const label = (i: ObservatoryDwell) => (i.series === 'all' ? i.placeName : `${i.placeName} (${seriesName(i.series)})`);
  const border = byPeriod(
    items.filter((i) => i.placeKind === 'border_post'),
    label,
    (i) => (i.medianSeconds === null ? null : Math.round(i.medianSeconds / 60)),
  );
  const others = byPeriod(
    items.filter((i) => i.placeKind !== 'border_post'),
    label,
    (i) => (i.medianSeconds === null ? null : Math.round(i.medianSeconds / 60)),
  );
  const columns: Column<ObservatoryDwell>[] = [
    { key: 'period', header: t('observatory.period'), cell: (i) => f.date(i.periodStart) },
    { key: 'place', header: t('observatory.place'), cell: (i) => i.placeName },
    {
      key: 'kind',
      header: t('observatory.placeKind'),
      cell: (i) => t(`observatory.kind.${i.placeKind}` as 'observatory.kind.border_post', { defaultValue: i.placeKind }),
    },
    { key: 'series', header: t('observatory.seriesHead'), cell: (i) => seriesName(i.series) },
    { key: 'visits', header: t('observatory.visits'), cell: (i) => f.number(i.visits), numeric: true },
    { key: 'trucks', header: t('observatory.trucks'), cell: (i) => f.number(i.trucks), numeric: true },
    { key: 'median', header: t('observatory.medianWait'), cell: (i) => f.duration(i.medianSeconds), numeric: true },
    { key: 'p90', header: t('observatory.p90Wait'), cell: (i) => f.duration(i.p90Seconds), numeric: true },
    {
      key: 'over',
      header: t('observatory.overThreshold'),
      // the threshold under the share: on one line the column widened the table past a 1,366 px window
      cell: (i) =>
        i.overThresholdShare === null ? (
          '—'
        ) : (
          <>
            {f.number(i.overThresholdShare * 100, 0)} %<br />
            <span className="muted small">&gt; {f.duration(i.thresholdSeconds)}</span>
          </>
        ),
      numeric: true,
    },
  ];
  return (
    <>
      <div className="charts">
        {border.rows.length > 0 && (
          <BarChartCard
            title={t('observatory.borderWaitChart')}
            data={border.rows}
            x="period"
            xTitle={t('chart.period')}
            series={border.names.map((n) => ({ key: n, label: n }))}
            xLabel={(v) => f.date(String(v))}
          />
        )}
        {others.rows.length > 0 && (
          <BarChartCard
            title={t('observatory.otherWaitChart')}
            data={others.rows}
            x="period"
            xTitle={t('chart.period')}
            series={others.names.map((n) => ({ key: n, label: n }))}
            xLabel={(v) => f.date(String(v))}
          />
        )}
      </div>
      <div className="card stack">
        <div className="screen-head">
          <h2 id="obs-dwell-table">{t('observatory.dwellTable')}</h2>
          <Downloads href={(format) => urlOf(observatoryDwell, { query: { ...query, format } })} what={t('observatory.dwellTab')} />
        </div>
        <DataTable
          caption={t('observatory.dwellTable')}
          columns={columns}
          rows={items}
          rowKey={(i) => `${i.periodStart}-${i.placeId}-${i.series}`}
          empty={{ title: t('observatory.none'), hint: t('observatory.noneHint') }}
        />
        <Withheld count={items.filter((i) => i.suppressed).length} minTrucks={q.data.minTrucks} />
      </div>
    </>
  );
}

function TransitPanel({ query }: { query: Query }) {
  const { t } = useTranslation();
  const f = useFormat();
  const q = useApiQuery(observatoryTransit, { query });
  const seriesName = useSeriesName(query.companyId ?? null);
  if (q.isPending) return <Loading />;
  if (q.error || !q.data) return <ErrorState error={q.error} retry={() => void q.refetch()} />;
  const items = q.data.items;
  const name = (i: ObservatoryTransit) => `${i.fromName} → ${i.toName}${i.series === 'all' ? '' : ` (${seriesName(i.series)})`}`;
  const ends = byPeriod(
    items.filter((i) => i.kind === 'corridor'),
    name,
    (i) => (i.medianSeconds === null ? null : Math.round(i.medianSeconds / 360) / 10),
  );
  const columns: Column<ObservatoryTransit>[] = [
    { key: 'period', header: t('observatory.period'), cell: (i) => f.date(i.periodStart) },
    { key: 'corridor', header: t('observatory.corridor'), cell: (i) => t(`corridor.${i.corridor}`) },
    { key: 'from', header: t('observatory.from'), cell: (i) => i.fromName },
    { key: 'to', header: t('observatory.to'), cell: (i) => i.toName },
    { key: 'series', header: t('observatory.seriesHead'), cell: (i) => seriesName(i.series) },
    { key: 'trips', header: t('observatory.trips'), cell: (i) => f.number(i.trips), numeric: true },
    { key: 'median', header: t('observatory.medianTransit'), cell: (i) => f.duration(i.medianSeconds), numeric: true },
    { key: 'p90', header: t('observatory.p90Transit'), cell: (i) => f.duration(i.p90Seconds), numeric: true },
    { key: 'speed', header: t('observatory.speed'), cell: (i) => f.speedKmh(i.speedKmh), numeric: true },
    {
      key: 'apart',
      header: t('observatory.countedApart'),
      cell: (i) => (i.suppressed ? '—' : t('observatory.apart', { left: i.excludedLeftCorridor, long: i.excludedLongStop })),
      numeric: true,
    },
  ];
  return (
    <>
      <div className="charts">
        {ends.rows.length > 0 && (
          <BarChartCard
            title={t('observatory.corridorTransitChart')}
            data={ends.rows}
            x="period"
            xTitle={t('chart.period')}
            series={ends.names.map((n) => ({ key: n, label: n }))}
            xLabel={(v) => f.date(String(v))}
          />
        )}
      </div>
      <div className="card stack">
        <div className="screen-head">
          <h2 id="obs-transit-table">{t('observatory.transitTable')}</h2>
          <Downloads href={(format) => urlOf(observatoryTransit, { query: { ...query, format } })} what={t('observatory.transitTab')} />
        </div>
        <DataTable
          caption={t('observatory.transitTable')}
          columns={columns}
          rows={items}
          rowKey={(i) => `${i.periodStart}-${i.kind}-${i.fromPlaceId}-${i.toPlaceId}-${i.series}`}
          empty={{ title: t('observatory.none'), hint: t('observatory.noneHint') }}
        />
        <Withheld count={items.filter((i) => i.suppressed).length} minTrucks={q.data.minTrucks} />
      </div>
    </>
  );
}

function StopsPanel({ query }: { query: Query }) {
  const { t } = useTranslation();
  const f = useFormat();
  const q = useApiQuery(observatoryStops, { query });
  const seriesName = useSeriesName(query.companyId ?? null);
  if (q.isPending) return <Loading />;
  if (q.error || !q.data) return <ErrorState error={q.error} retry={() => void q.refetch()} />;
  const items = q.data.items;
  const chart = byPeriod(
    items,
    (i) => `${t(`corridor.${i.corridor}`)}${i.series === 'all' ? '' : ` (${seriesName(i.series)})`}`,
    (i) => i.stopsPer1000Km,
  );
  const columns: Column<ObservatoryStops>[] = [
    { key: 'period', header: t('observatory.period'), cell: (i) => f.date(i.periodStart) },
    { key: 'corridor', header: t('observatory.corridor'), cell: (i) => t(`corridor.${i.corridor}`) },
    { key: 'series', header: t('observatory.seriesHead'), cell: (i) => seriesName(i.series) },
    { key: 'stops', header: t('observatory.stops'), cell: (i) => f.number(i.stops), numeric: true },
    {
      key: 'km',
      header: t('observatory.distance'),
      cell: (i) => f.distance(i.distanceKm === null ? null : i.distanceKm * 1000),
      numeric: true,
    },
    { key: 'rate', header: t('observatory.stopsPer1000'), cell: (i) => f.number(i.stopsPer1000Km, 2), numeric: true },
    { key: 'trucks', header: t('observatory.trucks'), cell: (i) => f.number(i.trucks), numeric: true },
  ];
  return (
    <>
      <div className="charts">
        {chart.rows.length > 0 && (
          <BarChartCard
            title={t('observatory.stopsChart')}
            data={chart.rows}
            x="period"
            xTitle={t('chart.period')}
            series={chart.names.map((n) => ({ key: n, label: n }))}
            xLabel={(v) => f.date(String(v))}
          />
        )}
      </div>
      <div className="card stack">
        <div className="screen-head">
          <h2 id="obs-stops-table">{t('observatory.stopsTable')}</h2>
          <Downloads href={(format) => urlOf(observatoryStops, { query: { ...query, format } })} what={t('observatory.stopsTab')} />
        </div>
        <DataTable
          caption={t('observatory.stopsTable')}
          columns={columns}
          rows={items}
          rowKey={(i) => `${i.periodStart}-${i.corridor}-${i.series}`}
          empty={{ title: t('observatory.none'), hint: t('observatory.noneHint') }}
        />
        <Withheld count={items.filter((i) => i.suppressed).length} minTrucks={q.data.minTrucks} />
      </div>
    </>
  );
}
