import { calendarsEndpoints } from '@corridor/contracts/calendars';
import { commandsEndpoints } from '@corridor/contracts/commands-api';
import { groupsEndpoints } from '@corridor/contracts/groups';
import { notificationRulesEndpoints } from '@corridor/contracts/notification-rules';
import { endpoint, resourceEndpoint } from '../../api/endpoint';

type ListShape = { method: 'get'; request: { query: unknown } };
type ParamShape<M extends string> = { method: M; request: { params: unknown } };

export const rulesList = resourceEndpoint<ListShape>()(notificationRulesEndpoints, 'notifications.list');
export const ruleCreate = resourceEndpoint<{ method: 'post' }>()(notificationRulesEndpoints, 'notifications.create');
export const ruleUpdate = resourceEndpoint<ParamShape<'put'>>()(notificationRulesEndpoints, 'notifications.update');
export const ruleDelete = resourceEndpoint<ParamShape<'delete'>>()(notificationRulesEndpoints, 'notifications.delete');
export const ruleTypes = endpoint(notificationRulesEndpoints, 'notifications.types');
export const notificators = endpoint(notificationRulesEndpoints, 'notifications.notificators');
export const calendarsList = resourceEndpoint<ListShape>()(calendarsEndpoints, 'calendars.list');
export const groupsList = resourceEndpoint<ListShape>()(groupsEndpoints, 'groups.list');
/** The saved commands' list (commands.types and commands.sendable are GETs with a query too: left out by their literal ids). */
export const savedCommandsList = resourceEndpoint<ListShape>()(commandsEndpoints, 'commands.list') as Exclude<
  Extract<(typeof commandsEndpoints)[number], ListShape>,
  { id: 'commands.types' | 'commands.sendable' }
>;
