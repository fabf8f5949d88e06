import { notificationTypes, type ChannelPreference, type NotificationType } from '@corridor/contracts';
import type { NotificationSettingsRow } from '../db/schema';

/** A type the user has not set: inbox only; mail and webhook are opt-in (the contract says so). */
const defaultChannels: ChannelPreference = { web: true, email: false, webhook: false };

/** Every type's channels for a user: what they saved over the defaults. */
export function channelsOf(row: NotificationSettingsRow | undefined): Record<NotificationType, ChannelPreference> {
  return Object.fromEntries(notificationTypes.map((t) => [t, { ...defaultChannels, ...row?.channels[t] }])) as Record<
    NotificationType,
    ChannelPreference
  >;
}
