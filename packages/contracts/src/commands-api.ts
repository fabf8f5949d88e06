import { z } from 'zod';
import { ref, optionalRef } from './references';
import { defineEndpoint } from './endpoint';
import { Attributes } from './common';
import { OwnerCompanyInput, resourceEndpoints, trackingWriters, TypeItem } from './resource-endpoints';
import { LinkedListQuery } from './object-links';

/** A saved command, in Traccar's shape (plus companyId): a named command ready to send. */
export const SavedCommand = z
  .object({
    id: z.number().int().positive(),
    deviceId: z.number().int().min(0).describe('0: usable for any device (Traccar)'),
    description: z.string(),
    type: z.string(),
    textChannel: z.boolean().describe('Send by SMS instead of the data connection (not supported: always false on send)'),
    attributes: Attributes.describe('Command parameters, e.g. data for custom'),
    companyId: z.number().int().nullable(),
  })
  .meta({ id: 'SavedCommand' });
export type SavedCommand = z.infer<typeof SavedCommand>;

const commandType = z.string().regex(/^[a-zA-Z][a-zA-Z0-9]{0,63}$/, 'a command type such as engineStop, engineResume, custom');

export const SavedCommandInput = z
  .object({
    deviceId: optionalRef('device'),
    description: z.string().min(1).max(256),
    type: commandType,
    textChannel: z.boolean().default(false),
    attributes: Attributes.default({}),
    companyId: OwnerCompanyInput,
  })
  .meta({ id: 'SavedCommandInput' });
export type SavedCommandInput = z.infer<typeof SavedCommandInput>;

export const SavedCommandsQuery = LinkedListQuery;

/** POST /commands/send: a saved command (id) or an ad-hoc one (type + attributes) for deviceId. */
export const CommandSendInput = z
  .object({
    id: ref('command', z.number().int().positive()).optional().describe('A saved command to send'),
    deviceId: ref('device', z.number().int().positive()),
    type: commandType.optional(),
    textChannel: z.literal(false).default(false),
    attributes: Attributes.default({}),
  })
  .refine((c) => c.id !== undefined || c.type !== undefined, { message: 'give a saved command id or a type', path: ['type'] })
  .meta({ id: 'CommandSendInput' });
export type CommandSendInput = z.infer<typeof CommandSendInput>;

/**
 * POST /commands/send's answer: Traccar's QueuedCommand (an integer id) with the device's uniqueId
 * and the time it was queued. The id is the command's on commands.v1 as well (written there as
 * decimal text): a queuedCommandSent event names it in attributes.commandId.
 */
export const QueuedCommand = z
  .object({
    id: z
      .number()
      .int()
      .positive()
      .max(Number.MAX_SAFE_INTEGER)
      .describe("The queued command's id (unique; commands.v1 carries it as text)"),
    deviceId: z.number().int().positive(),
    uniqueId: z.string().describe("The device's unique id (IMEI)"),
    type: z.string(),
    textChannel: z.boolean().describe('Always false: commands go over the data connection'),
    attributes: Attributes,
    requestedAt: z.iso.datetime({ offset: true }),
  })
  .meta({ id: 'QueuedCommand' });
export type QueuedCommand = z.infer<typeof QueuedCommand>;

const tags = ['commands'];
export const commandsEndpoints = [
  ...resourceEndpoints({
    id: 'commands',
    path: '/commands',
    noun: 'saved command',
    kind: 'command',
    tags,
    entity: SavedCommand,
    input: SavedCommandInput,
    query: SavedCommandsQuery,
    write: trackingWriters,
    companyScoped: true,
    description: 'Saved commands. Keyword searches description and type.',
  }),
  defineEndpoint({
    id: 'commands.types',
    method: 'get',
    path: '/commands/types',
    service: 'ops-api',
    tags,
    companyScoped: true,
    access: 'authenticated',
    summary: 'Command types a device supports',
    description:
      'With deviceId: the types its protocol (from its latest position, else its device model) can encode; without: every type any protocol supports.',
    request: { query: z.object({ deviceId: ref('device', z.coerce.number().int().positive()).optional() }) },
    responses: { 200: { description: 'Types', schema: z.array(TypeItem) } },
  }),
  defineEndpoint({
    id: 'commands.sendable',
    method: 'get',
    path: '/commands/send',
    service: 'ops-api',
    tags,
    companyScoped: true,
    access: trackingWriters,
    summary: 'Saved commands that can be sent to a device now',
    request: { query: z.object({ deviceId: ref('device', z.coerce.number().int().positive()) }) },
    responses: { 200: { description: 'Saved commands', schema: z.array(SavedCommand) } },
  }),
  defineEndpoint({
    id: 'commands.send',
    method: 'post',
    path: '/commands/send',
    service: 'ops-api',
    tags,
    companyScoped: true,
    access: trackingWriters,
    summary: 'Queue a command for a device',
    description:
      "Publishes the command on commands.v1 (key = device id); ingest writes it to the device's connection. " +
      "Answers 202 with the queued command. A type the device's protocol cannot encode answers 400 naming type.",
    request: { body: CommandSendInput },
    responses: { 202: { description: 'Queued', schema: QueuedCommand } },
  }),
] as const;
