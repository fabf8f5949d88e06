import { randomUUID } from 'node:crypto';
import { allRoles, positionId, type ReferenceKind, type Role } from '@corridor/contracts';
import { eventNumericId, insertEvents } from '@corridor/platform';
import { flagsRepository } from '@corridor/journey/flags/repository';
import { cargos, notifications, singleUseCertificates } from '@corridor/ops-api/db/schema';
import { ADMIN_AUTH, type Res, type TestStack, type TestUser } from '../test-stack';
import { calendarData, geofenceInput, routeInput } from './fixtures';

export type RefId = number | string;
export type Side = 'A' | 'B';
const COMPANY: Record<Side, number> = { A: 101, B: 202 };
/** The company roles a company's users have (staff roles see every company by design). */
export const companyRoles: Role[] = allRoles.filter((r) => ['dispatcher', 'company_user', 'clearing_agent', 'device'].includes(r));

export interface CompanyPool {
  users: Record<Role, TestUser>;
  /** Entries of each kind the company owns, by id (devices also by uniqueId). */
  ids: Partial<Record<ReferenceKind, RefId[]>>;
  uniqueIds: string[];
  /** Per-user entries (drafts), by user id. */
  drafts: Map<number, number>;
}

const field = <T>(value: T) => ({ value, confidence: 1, valid: true, issues: [] });
/** The extraction an IDF read would have stored (cargo comes from IDF documents only). */
const idfExtraction = (idfNumber: string) => ({
  format: 'json',
  valid: true,
  warnings: [],
  fields: {
    idfNumber: field(idfNumber),
    importerName: field('Importer'),
    importerPin: field('P051234567X'),
    consignor: field('Consignor'),
    countryOfOrigin: field('CN'),
    portOfDischarge: field('Mombasa'),
    invoiceValue: field(1000),
    currency: field('USD'),
    lineItems: field([{ hsCode: '8704.21', description: 'trucks', quantity: 1, unit: 'u', value: 1000 }]),
  },
});

const created = (res: Res, what: string): { id: number } & Record<string, unknown> => {
  if (res.statusCode >= 300) throw new Error(`fixture ${what} not created: ${res.statusCode} ${res.body}`);
  return (res.body ? res.json() : {}) as { id: number } & Record<string, unknown>;
};

/**
 * Builds one company's entries of every kind a request can name, through the API where an API
 * creates them (as that company's dispatcher or, for what only staff create, as the administrator)
 * and in the owning service's store where only a pipeline does (cargo from an IDF, certificates,
 * inbox notifications, journey flags, events).
 */
export async function buildPool(s: TestStack, side: Side, seq: string): Promise<CompanyPool> {
  const company = COMPANY[side];
  const users = {} as Record<Role, TestUser>;
  for (const role of companyRoles) users[role] = await s.user([role], company);
  const d = users.dispatcher.auth;
  const ids: CompanyPool['ids'] = {};
  const add = (kind: ReferenceKind, id: RefId) => void (ids[kind] ??= []).push(id);
  const post = async (auth: string, url: string, body: unknown, what: string) => created(await s.call(auth, 'POST', url, body), what);

  add('company', company);
  for (const u of Object.values(users)) add('user', u.id);
  const uniqueIds: string[] = [];
  for (let i = 0; i < 3; i++) {
    const uniqueId = `${side}${seq}${i}`;
    add('device', (await post(ADMIN_AUTH, '/api/devices', { name: `${side} truck ${i}`, uniqueId, companyId: company }, 'device')).id);
    uniqueIds.push(uniqueId);
  }
  const [dev0, dev1, dev2] = ids.device as [number, number, number];
  created(
    await s.call(ADMIN_AUTH, 'POST', '/api/positions', {
      positions: uniqueIds.map((uniqueId) => ({
        uniqueId,
        fixTime: new Date(Date.now() - 60_000).toISOString(),
        latitude: -3.9,
        longitude: 39.6,
        speed: 10,
      })),
    }),
    'positions',
  );
  created(await s.call(ADMIN_AUTH, 'POST', '/api/permissions', { userId: users.device.id, deviceId: dev0 }), 'device binding');
  add('group', (await post(d, '/api/groups', { name: `${side} fleet` }, 'group')).id);
  const calendarId = (await post(d, '/api/calendars', { name: `${side} hours`, data: calendarData }, 'calendar')).id as number;
  add('calendar', calendarId);
  add('driver', (await post(d, '/api/drivers', { name: `${side} driver`, uniqueId: `drv-${side}${seq}` }, 'driver')).id);
  add('order', (await post(d, '/api/orders', { uniqueId: `ord-${side}${seq}` }, 'order')).id);
  add(
    'maintenance',
    (await post(d, '/api/maintenance', { name: `${side} service`, type: 'odometer', start: 0, period: 10000 }, 'maintenance')).id,
  );
  add(
    'computedAttribute',
    (
      await post(
        d,
        '/api/attributes/computed',
        { description: `${side} kmh`, attribute: 'speedKmh', expression: 'speed * 1.852', type: 'Number' },
        'computed attribute',
      )
    ).id,
  );
  add('configuration', (await post(d, '/api/configurations', { name: `${side} config` }, 'configuration')).id);
  add(
    'command',
    (await post(d, '/api/commands', { description: `${side} custom`, type: 'custom', attributes: { data: 'STATUS#' } }, 'command')).id,
  );
  add(
    'notificationRule',
    (
      await post(
        d,
        '/api/notifications',
        {
          type: 'deviceOnline',
          always: true,
          notificators: ['web'],
          recipients: [{ userId: users.dispatcher.id, email: 'dispatcher@corridor.test' }],
        },
        'notification rule',
      )
    ).id,
  );
  add(
    'report',
    (
      await post(
        d,
        '/api/reports',
        { type: 'trips', calendarId, deviceIds: [dev0], recipients: ['dispatcher@corridor.test'] },
        'scheduled report',
      )
    ).id,
  );
  const owner = await post(
    d,
    '/api/truck-owners',
    { name: `${side} owner`, trucks: [{ plateNumber: `K${side}${seq}`.slice(0, 12) }] },
    'truck owner',
  );
  add('truckOwner', owner.id);
  add('truck', (owner.trucks as { id: number }[])[0]!.id);
  add('trackingUnit', (await post(d, '/api/tracking-unit', { deviceId: dev1 }, 'tracking unit')).id);
  const inventory = await post(ADMIN_AUTH, '/api/inventories', { deviceId: dev2 }, 'inventory');
  created(await s.call(ADMIN_AUTH, 'POST', `/api/inventories/${inventory.id}/assign`, { companyId: company }), 'inventory assignment');
  add('inventory', inventory.id);
  add('geofence', (await post(d, '/api/geofences', geofenceInput(`${side} yard`), 'geofence')).id);
  add('route', (await post(d, '/api/routes', routeInput(`${side} route`), 'route')).id);
  const journey = await post(d, '/api/journey', { deviceId: dev0, routeId: ids.route![0] }, 'journey');
  add('journey', journey.id);
  const flagId = await flagsRepository(s.adapters.db.orm).open({
    journeyId: journey.id,
    deviceId: dev0,
    type: 'offCorridor',
    openedAt: new Date(),
    latitude: -3.9,
    longitude: 39.6,
    distanceM: 900,
    details: {},
  });
  add('journeyFlag', flagId);
  add(
    'complaint',
    (
      await post(
        users.company_user.auth,
        '/api/complaints',
        {
          subjectType: 'company',
          subjectRef: String(company),
          companyId: company,
          category: 'delay',
          title: 'Late again',
          description: 'The truck arrived two days late.',
        },
        'complaint',
      )
    ).id,
  );
  const orm = s.adapters.db.orm;
  const [cargo] = await orm
    .insert(cargos)
    .values({
      companyId: company,
      idfNumber: `IDF-${side}${seq}`,
      importerName: `${side} importers`,
      extraction: idfExtraction(`IDF-${side}${seq}`) as never,
      createdByUserId: users.company_user.id,
      createdByEmail: 'x@corridor.test',
    } as never)
    .returning({ id: cargos.id });
  add('cargo', cargo!.id);
  const [certificate] = await orm
    .insert(singleUseCertificates)
    .values({
      cargoId: cargo!.id,
      companyId: company,
      verificationCode: `${side}${seq}`.padEnd(4, '0').slice(0, 4) + '-AAAA-BBBB',
      applicantUserId: users.clearing_agent.id,
      applicantEmail: 'agent@corridor.test',
      feeAmount: 50,
      feeCurrency: 'USD',
    } as never)
    .returning({ id: singleUseCertificates.id });
  add('certificate', certificate!.id);
  const [notice] = await orm
    .insert(notifications)
    .values({
      type: 'certificateApproved',
      title: 'Approved',
      message: 'Your certificate is approved',
      entityType: 'certificate',
      entityId: String(certificate!.id),
      companyId: company,
    })
    .returning({ id: notifications.id });
  add('notification', notice!.id);
  add(
    'shipment',
    (
      await post(
        d,
        '/api/shipments/company',
        {
          reference: `SH-${side}${seq}`,
          origin: { place: 'Mombasa', country: 'KE' },
          destination: { place: 'Kampala', country: 'UG' },
          journeyId: journey.id,
          cargoIds: [cargo!.id],
        },
        'shipment',
      )
    ).id,
  );
  const upload = await s.gateway.app.inject({
    method: 'POST',
    url: '/api/documents/upload',
    headers: { authorization: users.company_user.auth, 'content-type': 'multipart/form-data; boundary=XYZ' },
    payload: [
      '--XYZ',
      'Content-Disposition: form-data; name="kind"',
      '',
      'other',
      '--XYZ',
      'Content-Disposition: form-data; name="file"; filename="note.txt"',
      'Content-Type: text/plain',
      '',
      `a note of ${side}`,
      '--XYZ--',
      '',
    ].join('\r\n'),
  });
  add('document', created(upload, 'document').id as unknown as string);
  const eventId = randomUUID();
  await insertEvents(s.adapters.analytics)([
    {
      id: eventId,
      type: 'deviceOnline',
      eventTime: new Date().toISOString(),
      deviceId: dev0,
      positionId: null,
      journeyId: null,
      geofenceId: null,
      latitude: null,
      longitude: null,
      attributes: {},
    },
  ]);
  add('event', eventNumericId(eventId)); // the API names an event by the number its key gives (Traccar's Event.id)
  add('position', positionId(dev0, new Date()));
  const drafts = new Map<number, number>();
  for (const u of Object.values(users)) {
    if (u.roles[0] === 'device') continue;
    drafts.set(u.id, (await post(u.auth, '/api/drafts', { kind: 'shipment', payload: { side } }, 'draft')).id);
  }
  return { users, ids, uniqueIds, drafts };
}
