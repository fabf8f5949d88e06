import { and, eq, inArray, isNull, or } from 'drizzle-orm';
import type { z } from 'zod';
import {
  Topics,
  type CommandMessage,
  type CommandSendInput,
  type QueuedCommand,
  type SavedCommand,
  type SavedCommandInput,
  type SavedCommandsQuery,
} from '@corridor/contracts';
import { companyScope, notFound, unavailable, type Bus, type Identity, type Logger, type Orm } from '@corridor/platform';
import { audit } from '../audit/audit';
import { deviceModels, savedCommands, type SavedCommandRow } from '../db/schema';
import type { LatestPositions } from '../devices/latest-positions';
import type { DevicesService } from '../devices/service';
import { invalidField } from '../resources/pg-errors';
import { resourceService } from '../resources/resource-service';
import { linkedToDevice } from '../object-links/linked-devices';
import { linkedFilter } from '../object-links/linked-filter';
import type { Actor } from '../resources/scope';
import { allCommandTypes, commandTypesFor } from './command-types';
import { nextCommandId } from './command-id';

const toSavedCommand = (r: SavedCommandRow): SavedCommand => ({
  id: r.id,
  deviceId: r.deviceId ?? 0,
  description: r.description,
  type: r.type,
  textChannel: r.textChannel,
  attributes: r.attributes,
  companyId: r.companyId,
});

/** Saved commands (CRUD), the types a device supports, and sending: a commands.v1 message keyed by device id. */
export function commandsService(deps: { db: Orm; bus: Bus; devices: DevicesService; latest: LatestPositions; logger: Logger }) {
  const { db } = deps;
  const crud = resourceService<SavedCommandRow, SavedCommand, SavedCommandInput, z.output<typeof SavedCommandsQuery>>(db, {
    name: 'Saved command',
    entityType: 'saved_command',
    table: savedCommands,
    company: savedCommands.companyId,
    shared: true,
    keywordColumns: [savedCommands.description, savedCommands.type],
    // Traccar's deviceId: the commands linked to the device, and those saved for it alone
    filters: (q) => {
      const [byDevice, ...others] = linkedFilter(db, savedCommands.id, 'commandId', q);
      return [byDevice ? or(byDevice, eq(savedCommands.deviceId, q.deviceId!)) : undefined, ...others];
    },
    toEntity: toSavedCommand,
    toValues: (i, companyId) => ({
      deviceId: i.deviceId,
      description: i.description,
      type: i.type,
      textChannel: i.textChannel,
      attributes: i.attributes,
      companyId,
    }),
    async validate(i, companyId, actor) {
      if (i.deviceId === null) return;
      const d = await deps.devices.get(i.deviceId, companyScope(actor.identity)).catch(() => undefined);
      if (!d || (companyId !== null && d.companyId !== companyId))
        throw invalidField('deviceId', `device ${i.deviceId} does not exist in this company`);
    },
  });

  /** The device's protocol: from its latest position, else from its model in the catalogue; undefined when unknown. */
  async function protocolOf(deviceId: number, model: string | null): Promise<string | undefined> {
    const p = (await deps.latest([deviceId])).get(deviceId);
    if (p) return p.protocol;
    if (!model) return undefined;
    const [m] = await db.select({ protocol: deviceModels.protocol }).from(deviceModels).where(eq(deviceModels.model, model)).limit(1);
    return m?.protocol;
  }

  async function types(deviceId: number | undefined, who: Identity): Promise<{ type: string }[]> {
    if (deviceId === undefined) return allCommandTypes().map((type) => ({ type }));
    const device = await deps.devices.get(deviceId, companyScope(who));
    const protocol = await protocolOf(device.id, device.model);
    return (protocol === undefined ? allCommandTypes() : commandTypesFor(protocol)).map((type) => ({ type }));
  }

  async function sendable(deviceId: number, who: Identity): Promise<SavedCommand[]> {
    const device = await deps.devices.get(deviceId, companyScope(who));
    const supported = new Set((await types(deviceId, who)).map((t) => t.type));
    const scope = companyScope(who);
    // as in Traccar, the saved commands linked to the device or its group chain (and those saved for this device)
    const linked = await linkedToDevice(db, 'commandId', { id: device.id, groupId: device.groupId || null });
    const rows = await db
      .select()
      .from(savedCommands)
      .where(
        and(
          or(eq(savedCommands.deviceId, device.id), linked.length ? inArray(savedCommands.id, linked) : undefined),
          scope === undefined ? undefined : or(eq(savedCommands.companyId, scope), isNull(savedCommands.companyId)),
        ),
      )
      .orderBy(savedCommands.id);
    return rows.filter((r) => supported.has(r.type) && !r.textChannel).map(toSavedCommand);
  }

  /** Checks that the device's protocol can encode the type, then publishes the command on commands.v1. */
  async function queue(
    device: { id: number; uniqueId: string; model: string | null },
    type: string,
    attributes: Record<string, unknown>,
  ): Promise<QueuedCommand> {
    const protocol = await protocolOf(device.id, device.model);
    if (protocol !== undefined && !commandTypesFor(protocol).includes(type)) {
      throw invalidField(
        'type',
        `${protocol} devices do not support ${type} (supported: ${commandTypesFor(protocol).join(', ') || 'none'})`,
        { reason: 'commandUnsupported', protocol, type },
      );
    }
    const id = nextCommandId();
    const message: CommandMessage = {
      id: String(id),
      deviceId: device.id,
      uniqueId: device.uniqueId,
      type,
      attributes,
      requestedAt: new Date().toISOString(),
    };
    try {
      await deps.bus.publish(Topics.commands, [{ key: String(device.id), value: message }]);
    } catch (err) {
      throw unavailable('The command bus', err);
    }
    deps.logger.info({ deviceId: device.id, commandId: message.id, type: message.type }, 'command queued');
    return { id, deviceId: device.id, uniqueId: device.uniqueId, type, textChannel: false, attributes, requestedAt: message.requestedAt };
  }

  async function send(input: CommandSendInput, actor: Actor): Promise<QueuedCommand> {
    const device = await deps.devices.get(input.deviceId, companyScope(actor.identity));
    let type = input.type;
    let attributes = input.attributes;
    if (input.id !== undefined) {
      const saved = await crud.getRow(input.id, actor.identity).catch(() => undefined);
      if (!saved) throw notFound('Saved command', input.id);
      if (saved.deviceId !== null && saved.deviceId !== device.id)
        throw invalidField('id', `saved command ${saved.id} is for device ${saved.deviceId}`);
      type = saved.type;
      attributes = { ...saved.attributes, ...input.attributes };
    }
    const message = await queue(device, type!, attributes);
    await audit.record(db, actor.identity, {
      action: 'command.send',
      entityType: 'device',
      entityId: device.id,
      companyId: device.companyId,
      after: message,
      requestId: actor.requestId,
    });
    return message;
  }

  /**
   * A saved command sent for a notification rule (its command channel) to the device of an event:
   * no caller, the rule's company was checked when the rule was saved; the command must be shared
   * or the device's company's, and for that device when it names one. The rule's delivery record
   * is the trail.
   */
  async function sendSaved(commandId: number, deviceId: number): Promise<QueuedCommand> {
    const [saved] = await db.select().from(savedCommands).where(eq(savedCommands.id, commandId));
    if (!saved) throw notFound('Saved command', commandId);
    const device = await deps.devices.get(deviceId);
    if (saved.companyId !== null && saved.companyId !== device.companyId) throw notFound('Saved command', commandId);
    if (saved.deviceId !== null && saved.deviceId !== device.id)
      throw invalidField('commandId', `saved command ${saved.id} is for device ${saved.deviceId}`);
    return queue(device, saved.type, saved.attributes);
  }

  return { ...crud, types, sendable, send, sendSaved };
}
export type CommandsService = ReturnType<typeof commandsService>;
