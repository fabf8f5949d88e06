import { useTranslation } from 'react-i18next';
import type { Device } from '@corridor/contracts/devices';
import type { NotificationRule } from '@corridor/contracts/notification-rules';

/** A rule's parts in words for its row: the event (and alarms), the trucks, the channels, the calendar. */
export function useRuleWords(names: {
  devices: readonly Pick<Device, 'id' | 'name'>[];
  groups: readonly { id: number; name: string }[];
  calendars: readonly { id: number; name: string }[];
}) {
  const { t } = useTranslation();
  const tt = t as unknown as (key: string, o?: Record<string, unknown>) => string;
  const nameIn = (list: readonly { id: number; name: string }[], id: number) => list.find((x) => x.id === id)?.name ?? `#${id}`;
  const list = (items: string[]) =>
    items.length > 3 ? `${items.slice(0, 3).join(', ')} ${t('rules.andMore', { count: items.length - 3 })}` : items.join(', ');
  return {
    event: (r: Pick<NotificationRule, 'type' | 'alarms'>) =>
      tt(`eventType.${r.type}`, { defaultValue: r.type }) +
      (r.type === 'alarm' && r.alarms.length ? `: ${r.alarms.map((a) => tt(`alarmType.${a}`, { defaultValue: a })).join(', ')}` : ''),
    devices: (r: NotificationRule) => {
      if (r.always) return t('rules.allTrucks');
      const parts = [
        ...r.deviceIds.map((id) => nameIn(names.devices, id)),
        ...r.groupIds.map((id) => t('rules.group', { name: nameIn(names.groups, id) })),
      ];
      return parts.length ? list(parts) : t('rules.noTrucks');
    },
    channels: (r: NotificationRule) =>
      r.notificators
        .split(',')
        .filter(Boolean)
        .map((c) => tt(`rules.channel.${c}`, { defaultValue: c }))
        .join(', '),
    calendar: (r: NotificationRule) => (r.calendarId === null ? t('rules.always') : nameIn(names.calendars, r.calendarId)),
  };
}
