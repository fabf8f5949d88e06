import type { ExtractedField } from '@corridor/contracts';

export interface Found {
  value: string;
  confidence: number;
}

/** Confidence of a value found in the cell after its label / after "Label:" in the same cell. */
export const CONFIDENCE_OWN_CELL = 0.95;
export const CONFIDENCE_INLINE = 0.9;
const CONFIDENCE_NEXT_LINE = 0.75;

const stripLabel = (s: string): string => s.replace(/[\s:.\-–#]+$/, '').trim();

/**
 * Finds "label → value" pairs in a document's lines of cells: a label cell followed by its value
 * cell (tables and forms), "Label: value" inside one cell, or a label alone on its line with the
 * value on the next line (boxed forms such as the CMR). The first match of each key wins, among
 * the values `accepts` takes for it (a key without a check takes any).
 */
export function findLabelled<K extends string>(
  lines: string[][],
  labels: Record<K, RegExp>,
  accepts: Partial<Record<K, (value: string) => boolean>> = {},
): Partial<Record<K, Found>> {
  const found: Partial<Record<K, Found>> = {};
  const keys = Object.keys(labels) as K[];
  const labelOf = (cell: string): K | undefined => keys.find((k) => labels[k].test(stripLabel(cell)));
  const take = (key: K, value: string, confidence: number): void => {
    if (!found[key] && (accepts[key]?.(value) ?? true)) found[key] = { value, confidence };
  };
  lines.forEach((cells, li) => {
    cells.forEach((cell, ci) => {
      const own = labelOf(cell);
      if (own !== undefined) {
        const next = cells[ci + 1];
        if (next !== undefined && labelOf(next) === undefined) take(own, next.trim(), CONFIDENCE_OWN_CELL);
        else if (cells.length === 1 && lines[li + 1]?.length) {
          const below = lines[li + 1]!.join(' ').trim();
          if (labelOf(lines[li + 1]![0]!) === undefined) take(own, below, CONFIDENCE_NEXT_LINE);
        }
        return;
      }
      const m = /^(.{2,60}?)\s*[:：]\s*(.+)$/.exec(cell);
      if (!m) return;
      const key = labelOf(m[1]!);
      if (key !== undefined) take(key, m[2]!.trim(), CONFIDENCE_INLINE);
    });
  });
  return found;
}

/** An extracted field with its checks: failed checks lower the confidence that the reading is right. */
export function field<T>(found: { value: T; confidence: number } | undefined, check?: (v: T) => string[]): ExtractedField<T> {
  if (!found) return { value: null, confidence: 0, valid: null, issues: ['not found in the document'] };
  const issues = check ? check(found.value) : [];
  return {
    value: found.value,
    confidence: Math.round((issues.length ? found.confidence * 0.6 : found.confidence) * 100) / 100,
    valid: check ? issues.length === 0 : null,
    issues,
  };
}

/** "12,500.50" → 12500.5; undefined when it is not a number. */
export function parseAmount(s: string): number | undefined {
  const cleaned = s.replace(/[\s,]/g, '');
  if (!/^-?\d+(\.\d+)?$/.test(cleaned)) return undefined;
  return Number(cleaned);
}
