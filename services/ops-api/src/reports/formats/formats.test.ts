import { describe, expect, it, vi } from 'vitest';
import { text } from 'node:stream/consumers';
import { PassThrough, type Readable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import ExcelJS from 'exceljs';
import { REPORT_COLUMN_LABELS, XLSX_MEDIA_TYPE, type ReportTrip } from '@corridor/contracts';
import { tripsTable } from '../trips';
import { stopsTable } from '../stops';
import { summaryTable } from '../summary';
import { geofencesTable } from '../geofences';
import { eventsTable } from '../events';
import { routeTable } from '../route';
import type { ReportTable } from './table';
import { csvStream } from './csv';
import { DEFAULT_PRESENTATION, presentationOf, type Presentation } from './presentation';
import { jsonArrayStream } from './json';
import { reportFormat } from './negotiate';
import { xlsxStream } from './xlsx';

const trip = (i: number, patch: Partial<ReportTrip> = {}): ReportTrip => ({
  deviceId: 3,
  deviceName: 'KCA 001X, "Mombasa" unit',
  distance: 120_000.123456789 + i,
  gapDistance: 0,
  averageSpeed: 30.5,
  maxSpeed: 32.4,
  spentFuel: 0,
  startOdometer: 1_000_000,
  endOdometer: 1_120_000,
  startTime: '2026-03-02T06:00:00.000Z',
  endTime: '2026-03-02T08:03:30.000Z',
  startPositionId: 3_000 + i,
  endPositionId: 3_001 + i,
  startLat: -1.29,
  startLon: 36.82,
  endLat: -1.29,
  endLon: 37.9,
  duration: 7_410_000,
  driverUniqueId: 'D-9',
  ...patch,
});
async function* batches<T>(...b: T[][]): AsyncGenerator<T[]> {
  for (const x of b) yield x;
}
const buffer = async (s: Readable): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const c of s) chunks.push(Buffer.from(c as Uint8Array));
  return Buffer.concat(chunks);
};

describe('report formats', () => {
  it('JSON: one array across batches', async () => {
    const out = JSON.parse(await text(jsonArrayStream(batches([trip(1)], [], [trip(2), trip(3)])))) as ReportTrip[];
    expect(out.map((t) => t.distance)).toEqual([120_001.123456789, 120_002.123456789, 120_003.123456789]); // JSON keeps the API's metres, unrounded
    expect(JSON.parse(await text(jsonArrayStream(batches())))).toEqual([]);
  });

  it("CSV: headed in words with the units, values in the reader's units and rounded, times on their clock; parses back", async () => {
    const csv = await text(
      csvStream(tripsTable, batches([trip(1)], [trip(2, { spentFuel: 4.5, driverName: 'Asha' })]), DEFAULT_PRESENTATION),
    );
    const rows = parse(csv, { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0]!).slice(0, 8)).toEqual([
      'Device',
      'Start (UTC)',
      'End (UTC)',
      'Duration',
      'Distance (km)',
      'Average speed (km/h)',
      'Top speed (km/h)',
      'Jumps, not driven (km)',
    ]);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      Device: 'KCA 001X, "Mombasa" unit',
      'Start (UTC)': '2026-03-02 06:00:00',
      Duration: '2:03:30',
      'Distance (km)': '120',
      'Fuel used (l)': '0',
      Driver: '',
      'Average speed (km/h)': '56.5',
      'Top speed (km/h)': '60',
      'Start latitude': '-1.29',
      'Odometer at the start (km)': '1000',
    });
    expect(rows[1]).toMatchObject({ 'Fuel used (l)': '4.5', Driver: 'Asha', 'Distance (km)': '120' });
    // 120,002.123 m: 120 km to 10 m
    const precise = parse(await text(csvStream(tripsTable, batches([trip(0, { distance: 42_751.564364363854 })]), DEFAULT_PRESENTATION)), {
      columns: true,
    }) as Record<string, string>[];
    expect(precise[0]!['Distance (km)']).toBe('42.75');
  });

  it("CSV and xlsx: in the reader's language, units and time zone (Swahili, miles, mph, Nairobi)", async () => {
    const p: Presentation = presentationOf({
      attributes: { language: 'sw', distanceUnit: 'mi', speedUnit: 'mph', timezone: 'Africa/Nairobi' },
    });
    expect(p).toEqual({ language: 'sw', distanceUnit: 'mi', speedUnit: 'mph', timeZone: 'Africa/Nairobi' });
    const rows = parse(await text(csvStream(tripsTable, batches([trip(0, { distance: 160_934.4 })]), p)), { columns: true }) as Record<
      string,
      string
    >[];
    expect(rows[0]).toMatchObject({
      Kifaa: 'KCA 001X, "Mombasa" unit',
      'Mwanzo (Africa/Nairobi)': '2026-03-02 09:00:00',
      'Umbali (mi)': '100',
      'Kasi ya wastani (mph)': '35.1',
      Muda: '2:03:30',
    });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await buffer(xlsxStream(tripsTable, batches([trip(0)]), p))) as never);
    const sheet = wb.getWorksheet('trips')!;
    expect((sheet.getRow(1).values as unknown[]).slice(1, 4)).toEqual(['Kifaa', 'Mwanzo (Africa/Nairobi)', 'Mwisho (Africa/Nairobi)']);
    // the spreadsheet's date is the reader's wall clock (a date cell has no zone)
    expect((sheet.getRow(2).getCell(2).value as Date).toISOString()).toBe('2026-03-02T09:00:00.000Z');
    // the server's attributes when the user has none; an unknown value is passed over
    expect(
      presentationOf({ attributes: { speedUnit: 'furlongs' } }, { attributes: { speedUnit: 'kn', timezone: 'Africa/Dar_es_Salaam' } }),
    ).toEqual({ language: 'en', distanceUnit: 'km', speedUnit: 'kn', timeZone: 'Africa/Dar_es_Salaam' });
  });

  it('every column of every report is named in both languages', () => {
    const names = new Map<number, string>();
    for (const table of [
      tripsTable,
      stopsTable,
      summaryTable,
      geofencesTable,
      eventsTable(names),
      routeTable(names),
    ] as ReportTable<unknown>[]) {
      for (const c of table.columns) {
        expect(REPORT_COLUMN_LABELS[c.label]?.en, `${table.name}.${c.key}`).toBeTruthy();
        expect(REPORT_COLUMN_LABELS[c.label]?.sw, `${table.name}.${c.key}`).toBeTruthy();
      }
    }
  });

  it("xlsx: a real workbook with dates, [h]:mm:ss durations and numbers in the reader's units; exceljs reads it back", async () => {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await buffer(xlsxStream(tripsTable, batches([trip(1), trip(2)]), DEFAULT_PRESENTATION))) as never);
    const sheet = wb.getWorksheet('trips')!;
    expect(sheet.rowCount).toBe(3);
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toHaveLength(tripsTable.columns.length);
    expect(header.slice(0, 5)).toEqual(['Device', 'Start (UTC)', 'End (UTC)', 'Duration', 'Distance (km)']);
    const col = (key: string) => tripsTable.columns.findIndex((c) => c.key === key) + 1;
    const row = sheet.getRow(2);
    expect(row.getCell(col('deviceName')).value).toBe('KCA 001X, "Mombasa" unit');
    expect((row.getCell(col('startTime')).value as Date).toISOString()).toBe('2026-03-02T06:00:00.000Z');
    // a duration cell is a day fraction; exceljs reads a time-formatted cell back as a Date on Excel's epoch
    expect((row.getCell(col('duration')).value as Date).getTime() - Date.UTC(1899, 11, 30)).toBe(7_410_000);
    expect(row.getCell(col('duration')).numFmt).toBe('[h]:mm:ss');
    expect(row.getCell(col('distance')).value).toBe(120);
    expect(row.getCell(col('distance')).numFmt).toBe('0.00');
    expect(row.getCell(col('averageSpeed')).value).toBe(56.5);
    expect(row.getCell(col('spentFuel')).value).toBe(0);
    expect(row.getCell(col('driverName')).value).toBeNull();
  });

  it('xlsx: continues on a second sheet past the row limit', async () => {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await buffer(xlsxStream(tripsTable, batches([trip(1), trip(2), trip(3)]), DEFAULT_PRESENTATION, 3))) as never);
    expect(wb.worksheets.map((w) => [w.name, w.rowCount])).toEqual([
      ['trips', 3],
      ['trips 2', 2],
    ]);
  });

  it('CSV: the same text as csv-stringify (RFC 4180 quoting, words for booleans, numbers, JSON, empty for null)', async () => {
    type Row = { text: string | null; n: number | null; b: boolean | null; j: unknown; raw: string };
    const table: ReportTable<Row> = {
      name: 't',
      columns: [
        { key: 'text', label: 'address', kind: 'text', get: (r) => r.text },
        { key: 'n', label: 'hdop', kind: 'number', get: (r) => r.n },
        { key: 'b', label: 'valid', kind: 'boolean', get: (r) => r.b },
        { key: 'j', label: 'attributes', kind: 'json', get: (r) => r.j },
        { key: 'raw', label: 'protocol', kind: 'jsonText', get: (r) => r.raw },
      ],
    };
    const texts = [
      '',
      'plain',
      'a,b',
      'say "hi"',
      'line\nbreak',
      'cr\rhere',
      'crlf\r\n',
      ' padded ',
      'tab\tin',
      "it's",
      'Mombasa–Malaba ünï',
      '=1+2',
      '-5',
      '"',
      ',',
      null,
    ];
    const numbers = [0, 1.5, -273.15, 1e21, 1e-7, 123_456_789.125, Number.MAX_SAFE_INTEGER, null];
    const rows: Row[] = texts.map((text, i) => ({
      text,
      n: numbers[i % numbers.length]!,
      b: i % 3 === 0 ? null : i % 3 === 1,
      j: i % 2 ? { a: text, k: [1, 'x,y'] } : text,
      raw: JSON.stringify({ note: text }),
    }));
    const round3 = (n: number | null) => (n === null ? null : Math.round(n * 1000) / 1000);
    const expected = stringify(
      rows.map((r) => [r.text, round3(r.n), r.b === null ? null : r.b ? 'yes' : 'no', r.j === null ? null : JSON.stringify(r.j), r.raw]),
      {
        header: true,
        columns: ['Address', 'HDOP', 'Valid fix', 'Other values', 'Protocol'],
      },
    );
    expect(await text(csvStream(table, batches(rows.slice(0, 5), [], rows.slice(5)), DEFAULT_PRESENTATION))).toBe(expected);
    expect(await text(csvStream(table, batches(), DEFAULT_PRESENTATION))).toBe(
      stringify([], { header: true, columns: ['Address', 'HDOP', 'Valid fix', 'Other values', 'Protocol'] }),
    );
  });

  for (const [format, stream] of [
    ['json', (b: AsyncIterable<ReportTrip[]>) => jsonArrayStream(b)],
    ['csv', (b: AsyncIterable<ReportTrip[]>) => csvStream(tripsTable, b, DEFAULT_PRESENTATION)],
    ['xlsx', (b: AsyncIterable<ReportTrip[]>) => xlsxStream(tripsTable, b, DEFAULT_PRESENTATION)],
  ] as const) {
    it(`${format}: reads the source only as fast as the output is read, and ends it when the output is destroyed`, async () => {
      let pulled = 0;
      let ended = false;
      async function* source(): AsyncGenerator<ReportTrip[]> {
        try {
          for (let i = 0; i < 10_000; i++) {
            pulled++;
            yield Array.from({ length: 100 }, (_, k) => trip(i * 100 + k));
          }
        } finally {
          ended = true;
        }
      }
      const out = stream(source());
      const first = await new Promise((resolve) => out.once('data', resolve));
      expect(first).toBeTruthy();
      out.pause();
      // At rest: the output's buffer is full and nobody reads it, so nothing can pull the source
      // any more. A text stream stops once its readable buffer reaches the high-water mark; the
      // xlsx writer waits for 'drain' after each batch, so it may finish the batch it is on.
      const full = (): boolean =>
        out.readableLength >= out.readableHighWaterMark && (!(out instanceof PassThrough) || out.writableNeedDrain);
      await vi.waitFor(() => expect(full() || pulled >= 100).toBe(true), { timeout: 20_000, interval: 5 });
      const atRest = pulled;
      expect(atRest).toBeLessThan(100); // of 10,000 batches (a million trips)
      for (let i = 0; i < 20; i++) await new Promise(setImmediate); // turns of the event loop, no duration: the streams are all in this process
      expect(pulled).toBeLessThanOrEqual(atRest + (format === 'xlsx' ? 1 : 0)); // nothing more is read while the output is not
      out.destroy();
      await vi.waitFor(() => expect(ended).toBe(true), { timeout: 20_000, interval: 5 });
    });
  }

  it('chooses the format: parameter first, then Accept (q-values), else JSON', () => {
    expect(reportFormat('csv', XLSX_MEDIA_TYPE)).toBe('csv');
    expect(reportFormat(undefined, XLSX_MEDIA_TYPE)).toBe('xlsx');
    expect(reportFormat(undefined, 'text/csv')).toBe('csv');
    expect(reportFormat(undefined, `text/csv;q=0.5, ${XLSX_MEDIA_TYPE};q=0.9`)).toBe('xlsx');
    expect(reportFormat(undefined, 'application/json, text/csv')).toBe('json');
    expect(reportFormat(undefined, 'text/html, */*;q=0.1')).toBe('json');
    expect(reportFormat(undefined, undefined)).toBe('json');
  });
});
