import { useCallback, useRef, useState } from 'react';
import { pathOf, queryString } from '../api/client';
import { errorFromResponse } from '../api/errors';
import { reportEndpoints, type ReportKind } from './reports';

export interface ReportRequest {
  kind: ReportKind;
  deviceId: number[];
  groupId: number[];
  from: string;
  to: string;
}

export type ReportState =
  | { phase: 'idle' }
  | { phase: 'loading'; bytes: number; startedAt: number }
  | { phase: 'done'; rows: Record<string, unknown>[]; request: ReportRequest; ms: number }
  | { phase: 'failed'; error: unknown };

/** The query a report request sends (and its CSV / xlsx links). */
const reportQuery = (r: ReportRequest, format?: 'csv' | 'xlsx') => ({
  deviceId: r.deviceId,
  groupId: r.groupId,
  from: r.from,
  to: r.to,
  format,
});
export const reportUrl = (r: ReportRequest, format?: 'csv' | 'xlsx') =>
  pathOf(reportEndpoints[r.kind], {}) + queryString(reportQuery(r, format));

/**
 * Runs a report and shows its progress as the server streams it (bytes received so far; a long
 * period takes a while), with a way to stop it. Rows arrive as JSON once complete.
 */
export function useReport() {
  const [state, setState] = useState<ReportState>({ phase: 'idle' });
  const abort = useRef<AbortController | null>(null);
  const run = useCallback(async (r: ReportRequest) => {
    abort.current?.abort();
    const ctl = new AbortController();
    abort.current = ctl;
    const startedAt = performance.now();
    setState({ phase: 'loading', bytes: 0, startedAt });
    try {
      const res = await fetch(reportUrl(r), {
        headers: { accept: 'application/json', 'x-requested-with': 'corridor-console' },
        signal: ctl.signal,
        credentials: 'same-origin',
      });
      if (!res.ok) throw await errorFromResponse(res, reportEndpoints[r.kind].id);
      const reader = res.body!.getReader();
      const chunks: Uint8Array[] = [];
      let bytes = 0;
      let lastShown = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        bytes += value.length;
        if (bytes - lastShown > 64 * 1024) {
          lastShown = bytes;
          setState({ phase: 'loading', bytes, startedAt });
        }
      }
      const text = new TextDecoder().decode(concat(chunks, bytes));
      const rows = JSON.parse(text) as Record<string, unknown>[];
      setState({ phase: 'done', rows, request: r, ms: performance.now() - startedAt });
    } catch (error) {
      if (ctl.signal.aborted) setState({ phase: 'idle' });
      else setState({ phase: 'failed', error });
    }
  }, []);
  const stop = useCallback(() => abort.current?.abort(), []);
  return { state, run, stop };
}

/** The file name a download's Content-Disposition gives (RFC 6266: filename* first), or `fallback`. */
function attachmentName(header: string | null, fallback: string): string {
  const star = /filename\*\s*=\s*[^']*'[^']*'([^;]+)/i.exec(header ?? '');
  if (star) {
    try {
      return decodeURIComponent(star[1]!.trim());
    } catch {
      // a malformed name: the plain one, or the fallback
    }
  }
  return /filename\s*=\s*"?([^";]+)"?/i.exec(header ?? '')?.[1]?.trim() || fallback;
}

export type DownloadState = { phase: 'idle' } | { phase: 'loading'; format: 'csv' | 'xlsx' } | { phase: 'failed'; error: unknown };

/**
 * Downloads a report file through the page, so that a refusal (a period too long, a device not
 * the user's) is said on the page instead of a failed download in the browser's list: the file is
 * fetched, then handed to the browser under the server's file name.
 */
export function useReportDownload() {
  const [state, setState] = useState<DownloadState>({ phase: 'idle' });
  const download = useCallback(async (r: ReportRequest, format: 'csv' | 'xlsx') => {
    setState({ phase: 'loading', format });
    try {
      const res = await fetch(reportUrl(r, format), { headers: { 'x-requested-with': 'corridor-console' }, credentials: 'same-origin' });
      if (!res.ok) throw await errorFromResponse(res, reportEndpoints[r.kind].id);
      const url = URL.createObjectURL(await res.blob());
      const a = document.createElement('a');
      a.href = url;
      a.download = attachmentName(res.headers.get('content-disposition'), `${r.kind}.${format}`);
      document.body.append(a);
      a.click();
      a.remove();
      // the browser has taken the file once the click is handled
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      setState({ phase: 'idle' });
    } catch (error) {
      setState({ phase: 'failed', error });
    }
  }, []);
  return { state, download };
}

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
