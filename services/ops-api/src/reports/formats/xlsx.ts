import { PassThrough, type Readable, type Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { cellFormats } from './cells';
import type { Presentation } from './presentation';
import type { ReportTable } from './table';

/** Excel's row limit per sheet; longer reports continue on further sheets. */
const XLSX_MAX_ROWS = 1_048_576;

/** Resolves once `s` may be written again (or is gone). */
function drained(s: Writable): Promise<void> {
  if (!s.writableNeedDrain || s.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      s.off('drain', done);
      s.off('close', done);
      resolve();
    };
    s.on('drain', done);
    s.on('close', done);
  });
}

/**
 * An xlsx workbook for a reader (presentation.ts: headers in their language with units, values in
 * their units and on their clock, cells.ts), written through exceljs's streaming writer as rows
 * arrive (one sheet, more past Excel's row limit), with the header row frozen. After each batch the writer lets the zip stream
 * compress what it was given and waits while the output is not being read, so at most about a
 * batch of rows is in flight; when the output is destroyed (the client went away) the source is
 * left (its `return` runs).
 */
export function xlsxStream<T>(table: ReportTable<T>, batches: AsyncIterable<T[]>, p: Presentation, maxRows = XLSX_MAX_ROWS): Readable {
  const out = new PassThrough();
  const cells = cellFormats(table.columns, p);
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  let sheets = 0;
  const addSheet = (): ExcelJS.Worksheet => {
    sheets++;
    const sheet = workbook.addWorksheet(sheets === 1 ? table.name : `${table.name} ${sheets}`, { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = table.columns.map((c, i) => {
      const cell = cells[i]!;
      return { header: cell.header, key: c.key, width: cell.width, ...(cell.numFmt ? { style: { numFmt: cell.numFmt } } : {}) };
    });
    return sheet;
  };
  void (async () => {
    let sheet = addSheet();
    let rows = 1;
    for await (const batch of batches) {
      for (const item of batch) {
        if (rows >= maxRows) {
          sheet.commit();
          sheet = addSheet();
          rows = 1;
        }
        sheet.addRow(table.columns.map((c, i) => cells[i]!.xlsx(c.get(item)))).commit();
        rows++;
      }
      await new Promise(setImmediate); // the zip stream compresses in the background
      await drained(out);
      if (out.destroyed) return; // leaving the loop ends the source
    }
    sheet.commit();
    await workbook.commit();
  })().catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))));
  return out;
}
