import { commandsEndpoints } from '@corridor/contracts/commands-api';
import { endpoint } from '../../api/endpoint';

export const commandTypes = endpoint(commandsEndpoints, 'commands.types');
export const sendableCommands = endpoint(commandsEndpoints, 'commands.sendable');
export const sendCommand = endpoint(commandsEndpoints, 'commands.send');

/** Commands that stop or start a truck: asked twice, in red. */
export const GRAVE = new Set(['engineStop']);
