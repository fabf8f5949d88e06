import { notificationsEndpoints } from '@corridor/contracts/notifications';
import { endpoint } from '../api/endpoint';

export const inbox = endpoint(notificationsEndpoints, 'notifications.inbox');
export const markRead = endpoint(notificationsEndpoints, 'notifications.markRead');
