import { notificationsEndpoints } from '@corridor/contracts/notifications';
import { endpoint } from '../api/endpoint';

export const inbox = endpoint(notificationsEndpoints, 'inbox.list');
export const markRead = endpoint(notificationsEndpoints, 'inbox.markRead');
