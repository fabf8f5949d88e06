import type ExcelJS from 'exceljs';
import { distanceIn, DISTANCE_SYMBOL, REPORT_COLUMN_LABELS, REPORT_YES_NO, speedIn, SPEED_SYMBOL } from '@corridor/contracts';
import { isoTimeFormatter } from '../iso-time';
import type { Presentation } from './presentation';
import type { CellKind, Column } from './table';
import { wallClock } from './wall-clock';

/**
 * One column as a file shows it to its reader (presentation.ts): the header in their language with
 * the unit, and each value in that unit, rounded as people read it: distances to 10 m (2 decimals
 * of km or miles), speeds to 0.1, coordinates to 6 decimals (about 0.1 m), other numbers to 3;
 * times on the reader's clock; durations as hours:minutes:seconds; yes and no in words. CSV gets
 * text, the spreadsheet typed cells with a number format.
 */
export interface CellFormat {
  header: string;
  csv(v: unknown): string;
  xlsx(v: unknown): ExcelJS.CellValue;
  numFmt?: string;
  width: number;
}

const round = (v: number, digits: number): number => {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
};
const two = (n: number): string => (n < 10 ? `0${n}` : `${n}`);

/** ms → 'h:mm:ss' (hours not capped at 24). */
function durationText(ms: number): string {
  const s = Math.round(Math.abs(ms) / 1000);
  return `${ms < 0 ? '-' : ''}${Math.floor(s / 3600)}:${two(Math.floor((s % 3600) / 60))}:${two(s % 60)}`;
}

const widths: Record<CellKind, number> = {
  text: 18,
  number: 12,
  integer: 10,
  distance: 12,
  speed: 10,
  coordinate: 12,
  time: 20,
  duration: 12,
  boolean: 8,
  json: 40,
  jsonText: 40,
};

const numeric = (v: unknown): number | null => {
  const n = typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
};

/** The cell formats of a table's columns for one reader. */
export function cellFormats<T>(columns: readonly Column<T>[], p: Presentation): CellFormat[] {
  const shift = wallClock(p.timeZone);
  const iso = isoTimeFormatter();
  const [yes, no] = REPORT_YES_NO[p.language];
  const localMs = (v: unknown): number | null => {
    const ms = typeof v === 'string' ? Date.parse(v) : numeric(v);
    return ms === null || Number.isNaN(ms) ? null : shift(ms);
  };
  return columns.map((c) => {
    const label = REPORT_COLUMN_LABELS[c.label][p.language];
    const unit: string | undefined =
      c.kind === 'distance'
        ? DISTANCE_SYMBOL[p.distanceUnit]
        : c.kind === 'speed'
          ? SPEED_SYMBOL[p.speedUnit]
          : c.kind === 'time'
            ? p.timeZone
            : undefined;
    const header = unit ? `${label} (${unit})` : label;
    const width = Math.max(widths[c.kind], Math.min(40, header.length + 2));
    const number = (convert: (n: number) => number, digits: number) => {
      const value = (v: unknown): number | null => {
        const n = numeric(v);
        return n === null ? null : round(convert(n), digits);
      };
      return { csv: (v: unknown) => `${value(v) ?? ''}`, xlsx: value };
    };
    switch (c.kind) {
      case 'distance':
        return { header, width, numFmt: '0.00', ...number((m) => distanceIn(m, p.distanceUnit), 2) };
      case 'speed':
        return { header, width, numFmt: '0.0', ...number((kn) => speedIn(kn, p.speedUnit), 1) };
      case 'coordinate':
        return { header, width, numFmt: '0.000000', ...number((d) => d, 6) };
      case 'number':
        return { header, width, ...number((n) => n, 3) };
      case 'integer':
        return { header, width, ...number((n) => n, 0) };
      case 'time':
        return {
          header,
          width,
          numFmt: 'yyyy-mm-dd hh:mm:ss',
          csv: (v) => {
            const ms = localMs(v);
            return ms === null
              ? ''
              : iso(Math.round(ms / 1000) * 1000)
                  .slice(0, 19)
                  .replace('T', ' ');
          },
          // a spreadsheet date has no zone: the reader's wall clock, as the header says
          xlsx: (v) => {
            const ms = localMs(v);
            return ms === null ? null : new Date(Math.round(ms / 1000) * 1000);
          },
        };
      case 'duration':
        return {
          header,
          width,
          numFmt: '[h]:mm:ss',
          csv: (v) => {
            const ms = numeric(v);
            return ms === null ? '' : durationText(ms);
          },
          xlsx: (v) => {
            const ms = numeric(v);
            return ms === null ? null : Math.round(ms / 1000) / 86_400;
          },
        };
      case 'boolean':
        return {
          header,
          width,
          csv: (v) => (v === true ? yes : v === false ? no : ''),
          xlsx: (v) => (v === true ? yes : v === false ? no : null),
        };
      case 'json':
        return {
          header,
          width,
          csv: (v) => (v === null || v === undefined ? '' : JSON.stringify(v)),
          xlsx: (v) => (v === null || v === undefined ? null : JSON.stringify(v)),
        };
      case 'jsonText':
      case 'text':
        return {
          header,
          width,
          csv: (v) => (v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v)),
          xlsx: (v) => (v === null || v === undefined ? null : typeof v === 'string' ? v : JSON.stringify(v)),
        };
    }
  });
}
