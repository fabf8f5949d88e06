import { XLSX_MEDIA_TYPE, type ReportFormat } from '@corridor/contracts';

const byMediaType: Record<string, ReportFormat> = {
  'text/csv': 'csv',
  [XLSX_MEDIA_TYPE]: 'xlsx',
  'application/json': 'json',
  'application/*': 'json',
  '*/*': 'json',
};

/**
 * The output format: the `format` parameter when given, else the Accept header's most preferred
 * type among JSON, CSV and xlsx (q-values honoured), else JSON.
 */
export function reportFormat(asked: ReportFormat | undefined, accept: string | undefined): ReportFormat {
  if (asked) return asked;
  if (!accept) return 'json';
  const ranked = accept
    .split(',')
    .map((part, order) => {
      const [type = '', ...params] = part.split(';').map((s) => s.trim());
      const q = params.find((p) => p.startsWith('q='));
      return { type: type.toLowerCase(), q: q ? Number(q.slice(2)) : 1, order };
    })
    .filter((r) => Number.isFinite(r.q) && r.q > 0)
    .sort((a, b) => b.q - a.q || a.order - b.order);
  for (const r of ranked) {
    const format = byMediaType[r.type];
    if (format) return format;
  }
  return 'json';
}
