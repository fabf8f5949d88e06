import {
  REPORT_DIRECTION_WORDS,
  REPORT_SERIES_WORDS,
  type ObservatoryDwell,
  type ObservatoryStops,
  type ObservatoryTransit,
  type ReportLanguage,
} from '@corridor/contracts';
import type { Column, ReportTable } from '../reports/formats/table';

/**
 * The observatory's rows as files (CSV, xlsx) through the reports' writers: headed in the reader's
 * language with their units, durations as h:mm:ss, lengths in their distance unit, speeds in their
 * speed unit. `companyName` names a company's own rows; the others are never named.
 */
const KNOTS_PER_KMH = 1 / 1.852;
const ms = (s: number | null): number | null => (s === null ? null : s * 1000);

function common<T extends { periodStart?: string; series: ObservatoryTransit['series']; suppressed: boolean }>(
  lang: ReportLanguage,
  companyName: string | null,
) {
  const words = REPORT_SERIES_WORDS[lang];
  return {
    period: { key: 'periodStart', label: 'periodStart', kind: 'text', get: (r: T) => r.periodStart ?? '' } satisfies Column<T>,
    series: {
      key: 'series',
      label: 'series',
      kind: 'text',
      get: (r: T) => (r.series === 'company' ? (companyName ?? '') : r.series === 'others' ? words.others : words.all),
    } satisfies Column<T>,
    withheld: { key: 'suppressed', label: 'withheld', kind: 'boolean', get: (r: T) => r.suppressed } satisfies Column<T>,
  };
}

export function transitTable(lang: ReportLanguage, companyName: string | null): ReportTable<ObservatoryTransit> {
  const c = common<ObservatoryTransit>(lang, companyName);
  return {
    name: 'transit-times',
    columns: [
      c.period,
      { key: 'corridor', label: 'corridor', kind: 'text', get: (r) => r.corridor },
      { key: 'fromName', label: 'fromPlace', kind: 'text', get: (r) => r.fromName },
      { key: 'toName', label: 'toPlace', kind: 'text', get: (r) => r.toName },
      { key: 'lengthKm', label: 'length', kind: 'distance', get: (r) => r.lengthKm * 1000 },
      c.series,
      { key: 'trips', label: 'trips', kind: 'integer', get: (r) => r.trips },
      { key: 'trucks', label: 'trucks', kind: 'integer', get: (r) => r.trucks },
      { key: 'medianSeconds', label: 'medianTransit', kind: 'duration', get: (r) => ms(r.medianSeconds) },
      { key: 'p90Seconds', label: 'p90Transit', kind: 'duration', get: (r) => ms(r.p90Seconds) },
      { key: 'speedKmh', label: 'transitSpeed', kind: 'speed', get: (r) => (r.speedKmh === null ? null : r.speedKmh * KNOTS_PER_KMH) },
      { key: 'excludedLeftCorridor', label: 'excludedLeftCorridor', kind: 'integer', get: (r) => r.excludedLeftCorridor },
      { key: 'excludedLongStop', label: 'excludedLongStop', kind: 'integer', get: (r) => r.excludedLongStop },
      c.withheld,
    ],
  };
}

export function dwellTable(lang: ReportLanguage, companyName: string | null): ReportTable<ObservatoryDwell> {
  const c = common<ObservatoryDwell>(lang, companyName);
  const ways = REPORT_DIRECTION_WORDS[lang];
  return {
    name: 'waiting-times',
    columns: [
      c.period,
      { key: 'placeName', label: 'placeName', kind: 'text', get: (r) => r.placeName },
      { key: 'placeKind', label: 'placeKind', kind: 'text', get: (r) => r.placeKind },
      { key: 'corridor', label: 'corridor', kind: 'text', get: (r) => r.corridor ?? '' },
      { key: 'direction', label: 'direction', kind: 'text', get: (r) => ways[r.direction] },
      c.series,
      { key: 'visits', label: 'visits', kind: 'integer', get: (r) => r.visits },
      { key: 'trucks', label: 'trucks', kind: 'integer', get: (r) => r.trucks },
      { key: 'medianSeconds', label: 'medianDwell', kind: 'duration', get: (r) => ms(r.medianSeconds) },
      { key: 'p90Seconds', label: 'p90Dwell', kind: 'duration', get: (r) => ms(r.p90Seconds) },
      { key: 'thresholdSeconds', label: 'dwellThreshold', kind: 'duration', get: (r) => ms(r.thresholdSeconds) },
      { key: 'overThreshold', label: 'overThreshold', kind: 'integer', get: (r) => r.overThreshold },
      { key: 'overThresholdShare', label: 'overThresholdShare', kind: 'number', get: (r) => r.overThresholdShare },
      c.withheld,
    ],
  };
}

export function stopsTable(lang: ReportLanguage, companyName: string | null): ReportTable<ObservatoryStops> {
  const c = common<ObservatoryStops>(lang, companyName);
  const ways = REPORT_DIRECTION_WORDS[lang];
  return {
    name: 'stops-per-1000-km',
    columns: [
      c.period,
      { key: 'corridor', label: 'corridor', kind: 'text', get: (r) => r.corridor },
      { key: 'direction', label: 'direction', kind: 'text', get: (r) => ways[r.direction] },
      c.series,
      { key: 'stops', label: 'stops', kind: 'integer', get: (r) => r.stops },
      { key: 'distanceKm', label: 'distance', kind: 'distance', get: (r) => (r.distanceKm === null ? null : r.distanceKm * 1000) },
      { key: 'stopsPer1000Km', label: 'stopsPer1000Km', kind: 'number', get: (r) => r.stopsPer1000Km },
      { key: 'trucks', label: 'trucks', kind: 'integer', get: (r) => r.trucks },
      c.withheld,
    ],
  };
}
