import type { Readable } from 'node:stream';
import type { RouteRow } from '../clickhouse/report-positions';
import { apiCsvStream, type ApiColumn } from '../reports/formats/csv';
import { textStream } from '../reports/formats/text-stream';
import { isoTimeFormatter } from '../reports/iso-time';

/**
 * Traccar's position exports (CsvExportProvider, GpxExportProvider, KmlExportProvider) written as the
 * route rows stream in (report-positions.ts RouteRow tuples): nothing is held but the current text
 * chunk.
 */

/** A row with its attributes parsed (CSV only, when the period has attribute keys). */
interface CsvRow {
  r: RouteRow;
  attrs: Record<string, unknown>;
}

/** The stored fields Traccar keeps as position attributes, under its keys. */
const asAttributes: [key: string, index: number][] = [
  ['sat', 14],
  ['hdop', 15],
  ['ignition', 16],
  ['odometer', 17],
  ['power', 18],
  ['battery', 19],
  ['alarm', 20],
];

/**
 * CSV: Traccar's columns (id, deviceId, protocol, serverTime, deviceTime, fixTime, valid, latitude,
 * longitude, altitude, speed, course, address, accuracy), the stored fields Traccar keeps as
 * attributes, then one column per attribute key of the period (`attributeKeys`, read beforehand).
 * The address is the offline geocoder's (`addressOf`).
 */
export function positionsCsv(
  batches: AsyncIterable<RouteRow[]>,
  attributeKeys: string[],
  addressOf: (latitude: number, longitude: number) => string | null,
): Readable {
  const time = [isoTimeFormatter(), isoTimeFormatter(), isoTimeFormatter()];
  const col = (key: string, kind: ApiColumn<CsvRow>['kind'], get: (r: RouteRow) => unknown): ApiColumn<CsvRow> => ({
    key,
    kind,
    get: (x) => get(x.r),
  });
  const own = new Set(asAttributes.map(([k]) => k));
  const columns: ApiColumn<CsvRow>[] = [
    col('id', 'integer', (r) => r[3]),
    col('deviceId', 'integer', (r) => r[0]),
    col('protocol', 'text', (r) => r[5]),
    col('serverTime', 'time', (r) => time[0]!(r[2])),
    col('deviceTime', 'time', (r) => time[1]!(r[6])),
    col('fixTime', 'time', (r) => time[2]!(r[1])),
    col('valid', 'boolean', (r) => r[7]),
    col('latitude', 'number', (r) => r[8]),
    col('longitude', 'number', (r) => r[9]),
    col('altitude', 'number', (r) => r[12]),
    col('speed', 'number', (r) => r[10]),
    col('course', 'number', (r) => r[11]),
    col('address', 'text', (r) => addressOf(r[8], r[9])),
    col('accuracy', 'number', (r) => r[13]),
    ...asAttributes.map(([key, i]) => col(key, 'text', (r) => r[i])),
    ...attributeKeys.filter((k) => !own.has(k)).map((key): ApiColumn<CsvRow> => ({ key, kind: 'text', get: (x) => x.attrs[key] })),
  ];
  const parsed = attributeKeys.length > 0;
  async function* rows(): AsyncGenerator<CsvRow[]> {
    for await (const b of batches) yield b.map((r) => ({ r, attrs: parsed ? (JSON.parse(r[23]) as Record<string, unknown>) : {} }));
  }
  return apiCsvStream(columns, rows());
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const xml = (s: string): string => s.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);

/** GPX 1.0: one track named after the device, a trkpt (lat, lon, ele, time) per position. */
export function positionsGpx(batches: AsyncIterable<RouteRow[]>, deviceName: string): Readable {
  const time = isoTimeFormatter();
  return textStream(batches, {
    head: `<?xml version="1.0" encoding="UTF-8"?><gpx version="1.0"><trk><name>${xml(deviceName)}</name><trkseg>`,
    item: (r) => `<trkpt lat="${r[8]}" lon="${r[9]}"><ele>${r[12] ?? 0}</ele><time>${time(r[1])}</time></trkpt>`,
    separator: '',
    tail: '</trkseg></trk></gpx>',
  });
}

/** KML 2.2: a document named after the device with one LineString of longitude,latitude,altitude. */
export function positionsKml(batches: AsyncIterable<RouteRow[]>, deviceName: string, period: { from: Date; to: Date }): Readable {
  const minute = (d: Date): string => d.toISOString().slice(0, 16).replace('T', ' ');
  return textStream(batches, {
    head:
      `<?xml version="1.0" encoding="UTF-8"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>${xml(deviceName)}</name>` +
      `<Placemark><name>${minute(period.from)} - ${minute(period.to)}</name><LineString><extrude>1</extrude><tessellate>1</tessellate>` +
      '<altitudeMode>absolute</altitudeMode><coordinates>',
    item: (r) => `${r[9]},${r[8]},${r[12] ?? 0}`,
    separator: ' ',
    tail: '</coordinates></LineString></Placemark></Document></kml>',
  });
}

/** The rows of these intervals only ([start, end) in epoch ms, sorted): a geofence's visits. */
export async function* within(batches: AsyncIterable<RouteRow[]>, intervals: [number, number][]): AsyncGenerator<RouteRow[]> {
  let i = 0;
  for await (const b of batches) {
    const out: RouteRow[] = [];
    for (const r of b) {
      while (i < intervals.length && r[1] >= intervals[i]![1]) i++;
      if (i < intervals.length && r[1] >= intervals[i]![0]) out.push(r);
    }
    if (out.length) yield out;
  }
}
