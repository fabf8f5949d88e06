import type { EventMessage, EventType, JourneyFlagType } from '@corridor/contracts';

/** The languages a notification's sentence is written in (a user's `attributes.language`, else the server's, else English). */
const messageLanguages = ['en', 'sw'] as const;
export type MessageLanguage = (typeof messageLanguages)[number];

/** What a sentence may name besides the event. */
export interface MessageContext {
  device: string;
  /** The event's geofence, by name when known. */
  geofence?: string;
}

type Parts = { device: string; geofence: string; alarm: string; speed: string; flag: string; result: string; driver: string };
type Texts = Record<EventType, (p: Parts) => string>;

const en: Texts = {
  alarm: (p) => `Alarm on ${p.device}: ${p.alarm}`,
  deviceOnline: (p) => `${p.device} is online`,
  deviceOffline: (p) => `${p.device} is offline`,
  deviceUnknown: (p) => `${p.device} has gone silent: status unknown`,
  deviceMoving: (p) => `${p.device} is moving`,
  deviceStopped: (p) => `${p.device} has stopped`,
  deviceOverspeed: (p) => `${p.device} exceeds the speed limit: ${p.speed}`,
  ignitionOn: (p) => `${p.device}: ignition on`,
  ignitionOff: (p) => `${p.device}: ignition off`,
  geofenceEnter: (p) => `${p.device} entered ${p.geofence}`,
  geofenceExit: (p) => `${p.device} left ${p.geofence}`,
  geofenceCrossed: (p) => `${p.device} crossed ${p.geofence}`,
  commandResult: (p) => `${p.device} answered a command: ${p.result}`,
  queuedCommandSent: (p) => `${p.device}: a queued command was sent`,
  driverChanged: (p) => `${p.device}: the driver is now ${p.driver}`,
  deviceFuelDrop: (p) => `${p.device}: the fuel level dropped`,
  deviceFuelIncrease: (p) => `${p.device}: the fuel level rose`,
  maintenance: (p) => `${p.device} is due for maintenance`,
  journeyStarted: (p) => `${p.device} started its journey`,
  journeyCompleted: (p) => `${p.device} completed its journey`,
  journeyCancelled: (p) => `The journey of ${p.device} was cancelled`,
  journeyFlagOpened: (p) => `${p.device} was flagged: ${p.flag}`,
  journeyFlagCleared: (p) => `The flag on ${p.device} cleared: ${p.flag}`,
  journeyFlagAcknowledged: (p) => `The flag on ${p.device} was acknowledged: ${p.flag}`,
  journeyFlagResolved: (p) => `The flag on ${p.device} was resolved: ${p.flag}`,
  deviceIdentityConflict: (p) => `Someone else sent data in the name of ${p.device}: it was refused or seen twice`,
};

const sw: Texts = {
  alarm: (p) => `Kengele kwenye ${p.device}: ${p.alarm}`,
  deviceOnline: (p) => `${p.device} iko mtandaoni`,
  deviceOffline: (p) => `${p.device} haiko mtandaoni`,
  deviceUnknown: (p) => `${p.device} imenyamaza: hali haijulikani`,
  deviceMoving: (p) => `${p.device} inasonga`,
  deviceStopped: (p) => `${p.device} imesimama`,
  deviceOverspeed: (p) => `${p.device} imezidi kikomo cha kasi: ${p.speed}`,
  ignitionOn: (p) => `${p.device}: injini imewashwa`,
  ignitionOff: (p) => `${p.device}: injini imezimwa`,
  geofenceEnter: (p) => `${p.device} imeingia ${p.geofence}`,
  geofenceExit: (p) => `${p.device} imetoka ${p.geofence}`,
  geofenceCrossed: (p) => `${p.device} imepita ${p.geofence}`,
  commandResult: (p) => `${p.device} imejibu amri: ${p.result}`,
  queuedCommandSent: (p) => `${p.device}: amri iliyokuwa ikisubiri imetumwa`,
  driverChanged: (p) => `${p.device}: dereva sasa ni ${p.driver}`,
  deviceFuelDrop: (p) => `${p.device}: kiwango cha mafuta kimeshuka`,
  deviceFuelIncrease: (p) => `${p.device}: kiwango cha mafuta kimepanda`,
  maintenance: (p) => `${p.device} inahitaji matengenezo`,
  journeyStarted: (p) => `${p.device} imeanza safari yake`,
  journeyCompleted: (p) => `${p.device} imekamilisha safari yake`,
  journeyCancelled: (p) => `Safari ya ${p.device} imeghairiwa`,
  journeyFlagOpened: (p) => `${p.device} imewekewa alama: ${p.flag}`,
  journeyFlagCleared: (p) => `Alama ya ${p.device} imeondoka: ${p.flag}`,
  journeyFlagAcknowledged: (p) => `Alama ya ${p.device} imekubaliwa: ${p.flag}`,
  journeyFlagResolved: (p) => `Alama ya ${p.device} imetatuliwa: ${p.flag}`,
  deviceIdentityConflict: (p) => `Mtu mwingine ametuma data kwa jina la ${p.device}: ilikataliwa au ilionekana mara mbili`,
};

const flagNames: Record<MessageLanguage, Record<JourneyFlagType, string>> = {
  en: {
    offCorridor: 'off corridor',
    unauthorizedStop: 'unauthorized stop',
    overspeed: 'overspeed',
    signalLoss: 'signal loss',
    backtracking: 'wrong direction',
    lateEta: 'late arrival',
    sealBreach: 'seal breach',
  },
  sw: {
    offCorridor: 'nje ya ushoroba',
    unauthorizedStop: 'kusimama bila ruhusa',
    overspeed: 'mwendo kasi',
    signalLoss: 'kupotea kwa ishara',
    backtracking: 'mwelekeo usio sahihi',
    lateEta: 'kuchelewa kufika',
    sealBreach: 'lakiri imevunjwa',
  },
};

const geofenceWord: Record<MessageLanguage, (id: string) => string> = { en: (id) => `geofence ${id}`, sw: (id) => `eneo ${id}` };
const unknownWord: Record<MessageLanguage, string> = { en: 'unknown', sw: 'haijulikani' };

/** A language a user or the server names, when messages are written in it. */
export function messageLanguage(...preferred: unknown[]): MessageLanguage {
  for (const p of preferred) {
    const code = typeof p === 'string' ? p.toLowerCase().split(/[-_]/)[0] : undefined;
    if (code && (messageLanguages as readonly string[]).includes(code)) return code as MessageLanguage;
  }
  return 'en';
}

const text = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;

/**
 * The sentence a web notification carries (Traccar's `attributes.message`): the event told in the
 * user's language, naming the device, the geofence, the alarm, the speed (km/h) or the flag.
 */
export function eventSentence(event: EventMessage, ctx: MessageContext, language: MessageLanguage): string {
  const a = event.attributes;
  const unknown = unknownWord[language];
  const speed = typeof a.speed === 'number' ? `${Math.round(a.speed * 1.852)} km/h` : unknown;
  const flagType = a.flagType as JourneyFlagType | undefined;
  const parts: Parts = {
    device: ctx.device,
    geofence: ctx.geofence ?? (event.geofenceId ? geofenceWord[language](event.geofenceId) : unknown),
    alarm: text(a.alarm) ?? unknown,
    speed,
    flag: (flagType && flagNames[language][flagType]) ?? text(flagType) ?? unknown,
    result: text(a.result) ?? unknown,
    driver: text(a.driverName) ?? text(a.driverUniqueId) ?? unknown,
  };
  return (language === 'sw' ? sw : en)[event.type](parts);
}
