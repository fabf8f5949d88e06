import { useTranslation } from 'react-i18next';

type Tone = 'ok' | 'warn' | 'bad' | 'info' | 'plain';

/** A state as a coloured pill; the label comes from the `status` catalogue (status.<value>) unless given (a complaint's, useNoticeWord). */
export function StatusPill({ value, tone, label }: { value: string; tone?: Tone; label?: string }) {
  const { t } = useTranslation();
  const text = label ?? t(`status.${value}` as 'status.draft', { defaultValue: value });
  return <span className={`pill pill-${tone ?? toneOf(value)}`}>{text}</span>;
}

const OK = /^(approved|completed|delivered|finalized|verified|resolved|closed|active|assigned|online|issued|cleared|paid|used)$/;
const BAD = /^(rejected|cancelled|failed|expired|revoked|dismissed|offline|invalid|flagged|new)$/;
const WARN =
  /^(pending|submitted|under_review|in_transit|investigating|acknowledged|applied|draft|extracted|needs_review|planned|escalated|open)$/;

function toneOf(value: string): Tone {
  if (OK.test(value)) return 'ok';
  if (BAD.test(value)) return 'bad';
  if (WARN.test(value)) return 'warn';
  return 'info';
}
