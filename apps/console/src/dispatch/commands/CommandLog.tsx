import { useTranslation } from 'react-i18next';
import { useFormat } from '../../i18n/format';
import { useTrackedCommands, type TrackedCommand } from '../../live/commands';

const STEPS: TrackedCommand['state'][] = ['queued', 'sent', 'answered'];

/** The commands this console sent to a device (or one of them) and how far each got. */
export function CommandLog({ deviceId, only }: { deviceId: number; only?: number }) {
  const { t } = useTranslation();
  const tt = t as unknown as (key: string, o?: Record<string, unknown>) => string;
  const f = useFormat();
  const { data } = useTrackedCommands();
  const mine = data.filter((c) => c.command.deviceId === deviceId && (only === undefined || c.command.id === only));
  if (!mine.length) return null;
  return (
    <ol className="command-log" aria-label={t('commands.log')}>
      {mine.map((c) => (
        <li key={c.command.id} data-testid="command-state" data-state={c.state}>
          <strong>{tt(`commands.types.${c.command.type}`, { defaultValue: c.command.type })}</strong>
          <ol className="command-steps" aria-label={t('commands.progress')}>
            {STEPS.map((s) => {
              const reached = STEPS.indexOf(s) <= STEPS.indexOf(c.state);
              const at = s === 'queued' ? c.command.requestedAt : s === 'sent' ? c.sentAt : c.answeredAt;
              return (
                <li key={s} className={reached ? 'done' : 'waiting'} aria-current={s === c.state ? 'step' : undefined}>
                  {t(`commands.state.${s}`)}
                  {reached && at && <span className="muted"> · {f.dateTimeSeconds(at)}</span>}
                </li>
              );
            })}
          </ol>
          <p className="small muted" aria-live="polite">
            {c.state === 'queued' && t('commands.queuedHint')}
            {c.state === 'sent' && t('commands.sentHint')}
            {c.state === 'answered' && t('commands.answer', { answer: c.answer || '—' })}
          </p>
        </li>
      ))}
    </ol>
  );
}
