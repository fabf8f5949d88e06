import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { NotificationRule } from '@corridor/contracts/notification-rules';
import { useApiMutation, useApiQuery } from '../../api/hooks';
import { useFleetDevices } from '../../live/queries';
import { may } from '../../session/access';
import { useUser } from '../../session/useUser';
import { DataTable, type Column } from '../../ui/DataTable';
import { FormError } from '../../ui/forms';
import { calendarsList, groupsList, ruleCreate, ruleDelete, rulesList } from './rule-endpoints';
import { RuleForm } from './RuleForm';
import { useRuleWords } from './rule-words';

type Editing = { rule: NotificationRule | null } | null;

/**
 * The user's notification rules over the API (Traccar's /notifications): which events of which
 * trucks or groups reach whom, through which channels, when. A rule with the web channel is what
 * pops up as an alert in the console.
 */
export default function NotificationRulesScreen() {
  const { t } = useTranslation();
  const user = useUser();
  const rules = useApiQuery(rulesList, { query: { limit: 1000 } });
  const devices = useFleetDevices();
  const groups = useApiQuery(groupsList, { query: { limit: 1000 } });
  const calendars = useApiQuery(calendarsList, { query: { limit: 1000 } });
  const remove = useApiMutation(ruleDelete, { invalidates: ['notifications.'] });
  const [editing, setEditing] = useState<Editing>(null);
  const words = useRuleWords({
    devices: devices.data ?? [],
    groups: (groups.data ?? []) as { id: number; name: string }[],
    calendars: (calendars.data ?? []) as { id: number; name: string }[],
  });
  const canWrite = may(user, ruleCreate);
  const data = (rules.data ?? []) as NotificationRule[];

  const columns: Column<NotificationRule>[] = [
    { key: 'type', header: t('rules.event'), cell: (r) => <strong>{words.event(r)}</strong> },
    { key: 'devices', header: t('rules.trucks'), cell: (r) => words.devices(r) },
    { key: 'channels', header: t('rules.channels'), cell: (r) => words.channels(r) },
    { key: 'calendar', header: t('rules.when'), cell: (r) => words.calendar(r) },
    { key: 'description', header: t('rules.description'), cell: (r) => r.description ?? '—' },
    ...(canWrite
      ? [
          {
            key: 'actions',
            header: <span className="sr-only">{t('common.actions')}</span>,
            cell: (r: NotificationRule) => (
              <span className="toolbar">
                <button
                  type="button"
                  className="btn btn-small"
                  onClick={() => setEditing({ rule: r })}
                  aria-label={t('rules.editOne', { what: words.event(r) })}
                >
                  {t('rules.edit')}
                </button>
                <button
                  type="button"
                  className="btn btn-small btn-danger"
                  aria-label={t('rules.deleteOne', { what: words.event(r) })}
                  onClick={() =>
                    window.confirm(t('rules.confirmDelete', { what: words.event(r) })) && remove.mutate({ params: { id: r.id } })
                  }
                >
                  {t('rules.delete')}
                </button>
              </span>
            ),
          } satisfies Column<NotificationRule>,
        ]
      : []),
  ];

  return (
    <div className="screen">
      <div className="screen-head">
        <h1>{t('rules.title')}</h1>
        {canWrite && !editing && (
          <button type="button" className="btn btn-primary" onClick={() => setEditing({ rule: null })}>
            {t('rules.new')}
          </button>
        )}
      </div>
      <p className="muted mt-0">{t('rules.intro')}</p>
      {editing && <RuleForm key={editing.rule?.id ?? 'new'} rule={editing.rule} onDone={() => setEditing(null)} />}
      {remove.error && <FormError error={remove.error} />}
      <DataTable
        caption={t('rules.title')}
        columns={columns}
        rows={data}
        rowKey={(r) => r.id}
        loading={rules.isPending}
        error={rules.error}
        retry={() => void rules.refetch()}
        empty={{ title: t('rules.empty'), hint: canWrite ? t('rules.emptyHint') : t('rules.emptyReadOnly') }}
      />
    </div>
  );
}
