import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Event } from '@corridor/contracts/events';
import type { Position } from '@corridor/contracts/positions';
import type { ReportStop, ReportSummary, ReportTrip } from '@corridor/contracts/reports';
import { useFormat, type Formatters } from '../i18n/format';
import { BarChartCard } from '../ui/charts/BarChartCard';
import { DataTable, Pager, type Column } from '../ui/DataTable';
import { useDeviceNames } from '../ui/lookups';
import type { ReportKind } from './reports';

const PAGE = 100;
type Row = Record<string, unknown>;

function columnsFor(kind: ReportKind, t: (k: string) => string, f: Formatters, device: (id: number) => string): Column<Row>[] {
  const name = { key: 'device', header: t('reports.device'), cell: (r: Row) => String(r.deviceName ?? device(Number(r.deviceId))) };
  switch (kind) {
    case 'summary':
      return [
        name,
        ...cols<ReportSummary>(t, f, [
          ['distance', 'd'],
          ['averageSpeed', 'kn'],
          ['maxSpeed', 'kn'],
          ['engineHours', 'ms'],
          ['startTime', 't'],
          ['endTime', 't'],
        ]),
      ];
    case 'trips':
      return [
        name,
        ...cols<ReportTrip>(t, f, [
          ['startTime', 't'],
          ['endTime', 't'],
          ['distance', 'd'],
          ['duration', 'ms'],
          ['averageSpeed', 'kn'],
          ['maxSpeed', 'kn'],
        ]),
      ];
    case 'stops':
      return [
        name,
        ...cols<ReportStop>(t, f, [
          ['startTime', 't'],
          ['endTime', 't'],
          ['duration', 'ms'],
          ['latitude', 'n'],
          ['longitude', 'n'],
        ]),
      ];
    case 'route':
      return [
        name,
        ...cols<Position>(t, f, [
          ['fixTime', 't'],
          ['latitude', 'n'],
          ['longitude', 'n'],
          ['speed', 'kn'],
          ['course', 'n'],
        ]),
      ];
    case 'events':
      return [
        name,
        ...cols<Event>(t, f, [
          ['eventTime', 't'],
          ['type', 's'],
        ]),
      ];
  }
}

function cols<T>(t: (k: string) => string, f: Formatters, spec: [keyof T & string, 'd' | 'kn' | 'ms' | 't' | 'n' | 's'][]): Column<Row>[] {
  return spec.map(([key, unit]) => ({
    key,
    header: t(`reports.col.${key}`),
    numeric: unit !== 't' && unit !== 's',
    cell: (r: Row) => {
      const v = r[key];
      if (v === null || v === undefined) return '—';
      if (unit === 'd') return f.distance(Number(v));
      if (unit === 'kn') return f.speedKnots(Number(v));
      if (unit === 'ms') return f.duration(Number(v) / 1000);
      if (unit === 't') return f.dateTime(String(v));
      if (unit === 'n') return f.number(Number(v), 5);
      return String(v);
    },
  }));
}

/** One bar per device (or per event type): what the report adds up to, in the user's units. */
function chartOf(
  kind: ReportKind,
  rows: Row[],
  t: (k: string, o?: Record<string, unknown>) => string,
  f: Formatters,
  device: (id: number) => string,
) {
  const per = new Map<string, { sum: number; n: number }>();
  const add = (k: string, v: number) => {
    const cur = per.get(k) ?? { sum: 0, n: 0 };
    per.set(k, { sum: cur.sum + v, n: cur.n + 1 });
  };
  for (const r of rows) {
    const who = String(r.deviceName ?? device(Number(r.deviceId)));
    if (kind === 'summary' || kind === 'trips') add(who, f.distanceValue(Number(r.distance ?? 0)));
    else if (kind === 'stops') add(who, Number(r.duration ?? 0) / 3_600_000);
    else if (kind === 'route') add(who, f.speedValue(Number(r.speed ?? 0)));
    else add(t(`eventType.${String(r.type)}`), 1);
  }
  const label = {
    summary: 'reports.chart.distance',
    trips: 'reports.chart.distance',
    stops: 'reports.chart.stopHours',
    route: 'reports.chart.fixes',
    events: 'reports.chart.events',
  }[kind];
  // a route's bar is each device's mean speed over its own fixes; the others add up
  const data = [...per.entries()]
    .map(([k, { sum, n }]) => ({ k, v: Math.round((kind === 'route' ? sum / n : sum) * 10) / 10 }))
    .slice(0, 40);
  return {
    title: t(label, { distance: f.units.distanceSymbol, speed: f.units.speedSymbol }),
    xTitle: t(kind === 'events' ? 'reports.col.type' : 'reports.device'),
    data,
  };
}

/** The report as a chart and a paged table. */
export function ReportResults({ kind, rows }: { kind: ReportKind; rows: Row[] }) {
  const { t: tt } = useTranslation();
  const t = tt as unknown as (k: string, o?: Record<string, unknown>) => string;
  const f = useFormat();
  const device = useDeviceNames();
  const [offset, setOffset] = useState(0);
  const columns = useMemo(() => columnsFor(kind, t, f, device), [kind, t, f, device]);
  const chart = useMemo(() => chartOf(kind, rows, t, f, device), [kind, rows, t, f, device]);
  return (
    <div className="stack">
      {rows.length > 0 && (
        <BarChartCard title={chart.title} data={chart.data} x="k" xTitle={chart.xTitle} series={[{ key: 'v', label: chart.title }]} />
      )}
      <DataTable
        caption={t(`reports.kind.${kind}`)}
        columns={columns}
        rows={rows.slice(offset, offset + PAGE)}
        rowKey={(r) =>
          `${String(r.deviceId)}-${String(r.id ?? r.startTime ?? r.fixTime ?? r.eventTime ?? '')}-${String(r.positionId ?? '')}`
        }
        empty={{ title: t('reports.empty'), hint: t('reports.emptyHint') }}
      />
      <Pager offset={offset} limit={PAGE} total={rows.length} count={Math.min(PAGE, rows.length - offset)} onChange={setOffset} />
    </div>
  );
}
