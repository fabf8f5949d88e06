import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CommandMessage,
  QueuedCommand,
  Topics,
  type Device,
  type PositionMessageInput,
  type SavedCommand,
  positionId,
} from '@corridor/contracts';
import { cacheKeys, type ConsumedMessage, type Subscription } from '@corridor/platform';
import { testUsers } from '@corridor/platform/testing/identity';
import { audit } from '../src/audit/audit';
import { dispatcherOf, startHarness, type Harness } from './tracking-harness';
import { expect400, expectError } from './tracking-expect';
import { eventually } from '@corridor/platform/testing/eventually';

/** Saved commands, supported types per protocol, and POST /commands/send publishing on commands.v1 keyed by device id. */
let h: Harness;
let sub: Subscription;
const received: { key: string; message: CommandMessage }[] = [];
let gt06: Device;
let teltonika: Device;
let unknown: Device;
let foreign: Device;

async function latest(d: Device, protocol: string): Promise<void> {
  const p: PositionMessageInput = {
    id: positionId(d.id, 1767225600000),
    deviceId: d.id,
    uniqueId: d.uniqueId,
    protocol,
    fixTime: '2026-01-01T00:00:00Z',
    serverTime: '2026-01-01T00:00:01Z',
    valid: true,
    latitude: -1.29,
    longitude: 36.82,
    speed: 0,
    course: 0,
  };
  await h.adapters.cache.set(cacheKeys.latestPosition(d.id), JSON.stringify(p));
}

beforeAll(async () => {
  h = await startHarness();
  const mk = async (uniqueId: string, companyId: number, model?: string) =>
    (await h.call(testUsers.admin, 'POST', '/api/devices', { name: uniqueId, uniqueId, companyId, model: model ?? null })).json<Device>();
  gt06 = await mk('863000000000001', 101);
  teltonika = await mk('863000000000002', 101);
  unknown = await mk('863000000000003', 101, 'GT06N-X');
  foreign = await mk('863000000000004', 202);
  await latest(gt06, 'gt06');
  await latest(teltonika, 'teltonika');
  sub = await h.adapters.bus.subscribe({
    groupId: 'commands-test',
    topics: [Topics.commands],
    fromBeginning: true,
    handler: async (msgs: ConsumedMessage[]) => {
      for (const m of msgs) received.push({ key: m.key, message: CommandMessage.parse(JSON.parse(m.value)) });
    },
  });
});
afterAll(async () => {
  await sub?.stop();
  await h?.close();
});

describe('commands', () => {
  it("lists the types a device's protocol can encode", async () => {
    const types = async (q: string) =>
      (await h.call(testUsers.companyA, 'GET', `/api/commands/types${q}`)).json<{ type: string }[]>().map((t) => t.type);
    expect(await types(`?deviceId=${gt06.id}`)).toEqual(['engineStop', 'engineResume', 'custom']);
    expect(await types(`?deviceId=${teltonika.id}`)).toEqual([]);
    expect(await types('')).toEqual(['custom', 'engineResume', 'engineStop']);
    expectError(await h.call(testUsers.companyA, 'GET', `/api/commands/types?deviceId=${foreign.id}`), 404, 'NOT_FOUND');
  });

  it('takes the protocol from the device model when the device has sent no position yet', async () => {
    await h.call(testUsers.admin, 'POST', '/api/device-model', { manufacturer: 'Concox', model: 'GT06N-X', protocol: 'gt06', port: 5023 });
    const res = await h.call(testUsers.companyA, 'GET', `/api/commands/types?deviceId=${unknown.id}`);
    expect(res.json<{ type: string }[]>().map((t) => t.type)).toEqual(['engineStop', 'engineResume', 'custom']);
  });

  it('sends an ad-hoc command: 202 with the queued command, one commands.v1 message keyed by device id, audited', async () => {
    const res = await h.call(dispatcherOf(101), 'POST', '/api/commands/send', {
      deviceId: gt06.id,
      type: 'engineStop',
      attributes: { alternative: false },
    });
    expect(res.statusCode, res.body).toBe(202);
    // Traccar's QueuedCommand: an integer id, which commands.v1 carries as decimal text
    const queued = QueuedCommand.parse(res.json());
    expect(queued).toMatchObject({
      deviceId: gt06.id,
      uniqueId: gt06.uniqueId,
      type: 'engineStop',
      textChannel: false,
      attributes: { alternative: false },
    });
    await eventually('the queued engineStop on commands.v1', () => received.some((r) => r.message.id === String(queued.id)));
    const got = received.filter((r) => r.message.id === String(queued.id));
    expect(got).toHaveLength(1);
    expect(got[0]!.key).toBe(String(gt06.id));
    const { textChannel: _, ...message } = queued;
    expect(got[0]!.message).toEqual({ ...message, id: String(queued.id) });
    const trail = await audit.forEntity(h.adapters.db.orm, 'device', gt06.id);
    expect(trail[0]).toMatchObject({ action: 'command.send', actorUserId: dispatcherOf(101).userId });
  });

  it('sends a saved command with its attributes, and lists saved commands usable for a device', async () => {
    const saved = (
      await h.call(dispatcherOf(101), 'POST', '/api/commands', { description: 'Say hi', type: 'custom', attributes: { data: 'STATUS#' } })
    ).json<SavedCommand>();
    const forDevice = (
      await h.call(dispatcherOf(101), 'POST', '/api/commands', { description: 'Stop', type: 'engineStop', deviceId: gt06.id })
    ).json<SavedCommand>();
    const unlinked = (
      await h.call(dispatcherOf(101), 'POST', '/api/commands', {
        description: 'Not for this truck',
        type: 'custom',
        attributes: { data: 'X#' },
      })
    ).json<SavedCommand>();
    // as in Traccar, a saved command is offered to the devices linked to it (or saved for the device itself)
    const link = await h.call(dispatcherOf(101), 'POST', '/api/links/objects', [{ deviceId: gt06.id, commandId: saved.id }]);
    expect(link.statusCode, link.body).toBe(204);
    const sendable = (await h.call(dispatcherOf(101), 'GET', `/api/commands/send?deviceId=${gt06.id}`))
      .json<SavedCommand[]>()
      .map((c) => c.id);
    expect(sendable).toEqual(expect.arrayContaining([saved.id, forDevice.id]));
    expect(sendable).not.toContain(unlinked.id);
    expect((await h.call(dispatcherOf(101), 'GET', `/api/commands/send?deviceId=${teltonika.id}`)).json()).toEqual([]);
    const res = await h.call(dispatcherOf(101), 'POST', '/api/commands/send', { id: saved.id, deviceId: gt06.id });
    expect(res.statusCode, res.body).toBe(202);
    const queued = QueuedCommand.parse(res.json());
    expect(queued).toMatchObject({ type: 'custom', attributes: { data: 'STATUS#' } });
    await eventually('the queued custom command on commands.v1', () => received.some((r) => r.message.id === String(queued.id)));
    expect400(await h.call(dispatcherOf(101), 'POST', '/api/commands/send', { id: forDevice.id, deviceId: unknown.id }), 'id');
  });

  it("refuses what the device cannot do, other companies' devices, and bad input", async () => {
    const before = received.length;
    expect400(await h.call(dispatcherOf(101), 'POST', '/api/commands/send', { deviceId: gt06.id, type: 'positionPeriodic' }), 'type');
    expect400(await h.call(dispatcherOf(101), 'POST', '/api/commands/send', { deviceId: teltonika.id, type: 'engineStop' }), 'type');
    expect400(await h.call(dispatcherOf(101), 'POST', '/api/commands/send', { deviceId: gt06.id }), 'type');
    expect400(
      await h.call(dispatcherOf(101), 'POST', '/api/commands/send', { deviceId: gt06.id, type: 'engineStop', textChannel: true }),
      'textChannel',
    );
    expectError(
      await h.call(dispatcherOf(101), 'POST', '/api/commands/send', { deviceId: foreign.id, type: 'engineStop' }),
      404,
      'NOT_FOUND',
    );
    expectError(await h.call(dispatcherOf(101), 'POST', '/api/commands/send', { deviceId: gt06.id, id: 999999 }), 404, 'NOT_FOUND');
    expectError(
      await h.call(testUsers.companyA, 'POST', '/api/commands/send', { deviceId: gt06.id, type: 'engineStop' }),
      403,
      'FORBIDDEN',
    );
    // a marker: a command that is sent, after the refused ones; once it is on commands.v1, a refused one published before it would be too
    const marker = QueuedCommand.parse(
      (await h.call(dispatcherOf(101), 'POST', '/api/commands/send', { deviceId: gt06.id, type: 'engineStop' })).json(),
    );
    await eventually('the marker command on commands.v1', () => received.some((r) => r.message.id === String(marker.id)));
    expect(received.slice(before).map((r) => r.message.id)).toEqual([String(marker.id)]);
  });
});
