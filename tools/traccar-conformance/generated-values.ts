/**
 * Valid inputs for Traccar's operations, generated from its schemas. The document gives a type for
 * every field and few examples, so a field is filled, in this order, from: the value the step gives;
 * a domain value this file knows for the schema's field (a WKT area, an iCalendar, an expression;
 * Traccar's description of the field says what it holds); the id of the fixture an `...Id` field
 * names (0, Traccar's "none", when there is none); the schema's example or first enum value; else a
 * value of the field's type and format.
 */

type Json = Record<string, unknown>;

/** Ids of what the run created so far, by the name of the field that refers to them (deviceId, groupId, ...). */
export type Fixtures = Record<string, number | string | undefined>;

let serial = 0;
/** A value unique in this run (unique ids, e-mails). */
const unique = (): string => `${Date.now().toString(36)}${(serial += 1)}`;

const digits = (): string => `86${String(Date.now()).slice(-9)}${String((serial += 1) % 10_000).padStart(4, '0')}`;

/** A calendar of weekday office hours (Africa/Nairobi), base64 as Traccar keeps it. */
const calendarData = Buffer.from(
  'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//corridor//conformance//EN\r\nBEGIN:VEVENT\r\nUID:office\r\nDTSTART;TZID=Africa/Nairobi:20260105T080000\r\n' +
    'DURATION:PT9H\r\nRRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n',
).toString('base64');

/** Domain values per schema field, where a value of the right type alone would not be one the server can take. */
const domain: Record<string, Record<string, () => unknown>> = {
  Device: { uniqueId: digits, phone: () => '+254700000001', model: () => 'GT06N', contact: () => 'Depot desk', category: () => 'truck' },
  User: {
    email: () => `conformance.${unique()}@corridor.test`,
    password: () => `pw-${unique()}-long`,
    phone: () => '+254700000002',
    map: () => 'osm',
    coordinateFormat: () => 'dd',
    poiLayer: () => '',
    latitude: () => -1.29,
    longitude: () => 36.82,
    zoom: () => 8,
    deviceLimit: () => -1,
    userLimit: () => 0,
    expirationTime: () => new Date(Date.now() + 365 * 86_400_000).toISOString(),
    administrator: () => false,
    readonly: () => false,
    disabled: () => false,
    deviceReadonly: () => false,
    limitCommands: () => false,
    fixedEmail: () => false,
  },
  Server: {
    map: () => 'osm',
    bingKey: () => '',
    mapUrl: () => '',
    poiLayer: () => '',
    announcement: () => '',
    latitude: () => -1.29,
    longitude: () => 36.82,
    zoom: () => 6,
    coordinateFormat: () => 'dd',
    registration: () => false,
    readonly: () => false,
    deviceReadonly: () => false,
    limitCommands: () => false,
    forceSettings: () => false,
  },
  // a group's groupId is its parent: none (0), never the fixture group itself
  Group: { groupId: () => 0 },
  Geofence: { area: () => 'CIRCLE (-1.2921 36.8219, 400)', description: () => 'Drawn by the conformance run' },
  Notification: { type: () => 'geofenceEnter', notificators: () => 'web', always: () => false, description: () => 'Conformance rule' },
  Command: { type: () => 'custom', attributes: () => ({ data: 'STATUS#' }), textChannel: () => false, description: () => 'Status request' },
  Attribute: {
    attribute: () => `speedKmh${(serial += 1)}`,
    expression: () => 'speed * 1.852',
    type: () => 'Number',
    description: () => 'Speed in km/h',
  },
  Driver: { uniqueId: () => `DRV${unique()}` },
  Maintenance: { type: () => 'totalDistance', start: () => 10_000_000, period: () => 10_000_000 },
  Calendar: { data: () => calendarData },
  Order: {
    uniqueId: () => `ORD${unique()}`,
    description: () => 'Containers to Malaba',
    fromAddress: () => 'Mombasa port',
    toAddress: () => 'Malaba OSBP',
  },
  DeviceAccumulators: { totalDistance: () => 125_000, hours: () => 3_600_000 },
  NotificationMessage: {
    subject: () => 'Corridor notice',
    digest: () => 'Notice',
    body: () => 'The Malaba border post closes at 22:00 tonight.',
    priority: () => false,
  },
};

/** The fixture an `...Id` field refers to (attributeId names a computed attribute, managedUserId a user). */
const fixtureOf = (field: string): string => ({ managedUserId: 'userId', linkedDeviceId: 'deviceId' })[field] ?? field;

function typed(schema: Json, field: string): unknown {
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'string':
      if (schema.format === 'date-time') return new Date().toISOString();
      return `Conformance ${field} ${unique()}`;
    case 'integer':
      return 0;
    case 'number':
      return 0;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return undefined;
  }
}

/**
 * A value for `schema` (a component, named `component`, or an inline schema). Objects get every
 * property the schema lists; `given` wins over everything; `id` is left out unless given.
 */
export function generate(schema: Json, fixtures: Fixtures, component?: string, given: Json = {}): unknown {
  const props = schema.properties as Record<string, Json> | undefined;
  if (schema.type !== 'object' || !props) return typed(schema, component ?? 'value');
  const out: Json = {};
  for (const [field, fieldSchema] of Object.entries(props)) {
    if (field in given) {
      if (given[field] !== undefined) out[field] = given[field];
      continue;
    }
    const known = component ? domain[component]?.[field] : undefined;
    let value: unknown;
    if (known) value = known();
    else if (field === 'id') value = undefined;
    else if (field.endsWith('Id') && (fieldSchema.type === 'integer' || fieldSchema.type === 'number')) {
      const id = fixtures[fixtureOf(field)];
      value = typeof id === 'number' ? id : 0;
    } else value = typed(fieldSchema, field);
    if (value !== undefined) out[field] = value;
  }
  for (const [field, v] of Object.entries(given)) if (!(field in out) && v !== undefined) out[field] = v;
  return out;
}
