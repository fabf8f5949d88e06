/**
 * What the columns of a report are called, in English and Swahili: the headers of the files the
 * server writes (CSV, xlsx) and of the console's report tables, from one list. Units are added by
 * whoever shows the column, in the reader's units (km or miles, km/h, knots or mph, their time zone).
 */
export type ReportLanguage = 'en' | 'sw';
type Label = Readonly<Record<ReportLanguage, string>>;

export const REPORT_COLUMN_LABELS = {
  deviceId: { en: 'Device id', sw: 'Kitambulisho cha kifaa' },
  deviceName: { en: 'Device', sw: 'Kifaa' },
  uniqueId: { en: 'Identifier', sw: 'Kitambulisho' },
  status: { en: 'Status', sw: 'Hali' },
  lastUpdate: { en: 'Last update', sw: 'Taarifa ya mwisho' },
  startTime: { en: 'Start', sw: 'Mwanzo' },
  endTime: { en: 'End', sw: 'Mwisho' },
  startLat: { en: 'Start latitude', sw: 'Latitudo ya mwanzo' },
  startLon: { en: 'Start longitude', sw: 'Longitudo ya mwanzo' },
  startAddress: { en: 'Start address', sw: 'Anwani ya mwanzo' },
  startOdometer: { en: 'Odometer at the start', sw: 'Odomita mwanzoni' },
  endLat: { en: 'End latitude', sw: 'Latitudo ya mwisho' },
  endLon: { en: 'End longitude', sw: 'Longitudo ya mwisho' },
  endAddress: { en: 'End address', sw: 'Anwani ya mwisho' },
  endOdometer: { en: 'Odometer at the end', sw: 'Odomita mwishoni' },
  distance: { en: 'Distance', sw: 'Umbali' },
  gapDistance: { en: 'Jumps, not driven', sw: 'Miruko, haikuendeshwa' },
  duration: { en: 'Duration', sw: 'Muda' },
  averageSpeed: { en: 'Average speed', sw: 'Kasi ya wastani' },
  maxSpeed: { en: 'Top speed', sw: 'Kasi ya juu' },
  spentFuel: { en: 'Fuel used (l)', sw: 'Mafuta yaliyotumika (l)' },
  driverUniqueId: { en: 'Driver id', sw: 'Kitambulisho cha dereva' },
  driverName: { en: 'Driver', sw: 'Dereva' },
  startPositionId: { en: 'Start position id', sw: 'Kitambulisho cha nafasi ya mwanzo' },
  endPositionId: { en: 'End position id', sw: 'Kitambulisho cha nafasi ya mwisho' },
  positionId: { en: 'Position id', sw: 'Kitambulisho cha nafasi' },
  latitude: { en: 'Latitude', sw: 'Latitudo' },
  longitude: { en: 'Longitude', sw: 'Longitudo' },
  address: { en: 'Address', sw: 'Anwani' },
  engineHours: { en: 'Engine hours', sw: 'Saa za injini' },
  startHours: { en: 'Engine hours at the start', sw: 'Saa za injini mwanzoni' },
  endHours: { en: 'Engine hours at the end', sw: 'Saa za injini mwishoni' },
  fixTime: { en: 'Time', sw: 'Wakati' },
  serverTime: { en: 'Received', sw: 'Ilipokelewa' },
  speed: { en: 'Speed', sw: 'Kasi' },
  course: { en: 'Course (°)', sw: 'Mwelekeo (°)' },
  altitude: { en: 'Altitude (m)', sw: 'Mwinuko (m)' },
  valid: { en: 'Valid fix', sw: 'Kipimo halali' },
  satellites: { en: 'Satellites', sw: 'Setilaiti' },
  hdop: { en: 'HDOP', sw: 'HDOP' },
  ignition: { en: 'Ignition', sw: 'Uwashaji' },
  odometer: { en: 'Odometer', sw: 'Odomita' },
  power: { en: 'Power (V)', sw: 'Umeme (V)' },
  battery: { en: 'Battery', sw: 'Betri' },
  alarm: { en: 'Alarm', sw: 'Kengele' },
  protocol: { en: 'Protocol', sw: 'Itifaki' },
  attributes: { en: 'Other values', sw: 'Thamani nyingine' },
  eventTime: { en: 'Time', sw: 'Wakati' },
  type: { en: 'Event', sw: 'Tukio' },
  eventId: { en: 'Event id', sw: 'Kitambulisho cha tukio' },
  geofenceId: { en: 'Geofence id', sw: 'Kitambulisho cha mpaka' },
  geofenceName: { en: 'Geofence', sw: 'Mpaka wa kijiografia' },
  journeyId: { en: 'Journey id', sw: 'Kitambulisho cha safari' },
  enterTime: { en: 'Entered', sw: 'Iliingia' },
  exitTime: { en: 'Left', sw: 'Ilitoka' },
  // the corridor observatory's tables (issue 30)
  periodStart: { en: 'Period from', sw: 'Kipindi kuanzia' },
  corridor: { en: 'Corridor', sw: 'Ushoroba' },
  fromPlace: { en: 'From', sw: 'Kutoka' },
  toPlace: { en: 'To', sw: 'Hadi' },
  direction: { en: 'Direction', sw: 'Mwelekeo' },
  series: { en: 'Trucks of', sw: 'Malori ya' },
  trips: { en: 'Trips', sw: 'Safari' },
  trucks: { en: 'Trucks', sw: 'Malori' },
  length: { en: 'Length', sw: 'Urefu' },
  medianTransit: { en: 'Median transit time', sw: 'Muda wa kati wa kupita' },
  p90Transit: { en: 'Transit time, 90th percentile', sw: 'Muda wa kupita, asilimia 90' },
  transitSpeed: { en: 'Transit speed', sw: 'Kasi ya kupita' },
  excludedLeftCorridor: { en: 'Trips that left the corridor', sw: 'Safari zilizotoka nje ya ushoroba' },
  excludedLongStop: { en: 'Trips that stopped over a day', sw: 'Safari zilizosimama zaidi ya siku' },
  withheld: { en: 'Withheld (too few trucks)', sw: 'Imezuiliwa (malori machache mno)' },
  placeName: { en: 'Place', sw: 'Mahali' },
  placeKind: { en: 'Kind of place', sw: 'Aina ya mahali' },
  visits: { en: 'Visits', sw: 'Ziara' },
  medianDwell: { en: 'Median wait', sw: 'Muda wa kati wa kusubiri' },
  p90Dwell: { en: 'Wait, 90th percentile', sw: 'Muda wa kusubiri, asilimia 90' },
  dwellThreshold: { en: 'Threshold', sw: 'Kikomo' },
  overThreshold: { en: 'Visits over the threshold', sw: 'Ziara zilizozidi kikomo' },
  overThresholdShare: { en: 'Share over the threshold', sw: 'Sehemu iliyozidi kikomo' },
  stops: { en: 'Stops outside authorized places', sw: 'Vituo nje ya maeneo yaliyoidhinishwa' },
  stopsPer1000Km: { en: 'Stops per 1,000 km', sw: 'Vituo kwa kila km 1,000' },
} as const satisfies Record<string, Label>;
export type ReportColumnKey = keyof typeof REPORT_COLUMN_LABELS;

/** Whose trucks a row of the observatory counts, in a file (a company's own row shows its name). */
export const REPORT_SERIES_WORDS: Readonly<Record<ReportLanguage, { all: string; others: string }>> = {
  en: { all: 'all companies', others: 'the other companies' },
  sw: { all: 'kampuni zote', others: 'kampuni nyingine' },
};

/** The two ways along a corridor, in a file. */
export const REPORT_DIRECTION_WORDS: Readonly<Record<ReportLanguage, { forward: string; reverse: string; both: string }>> = {
  en: { forward: 'inland, from the port', reverse: 'to the port', both: 'both ways' },
  sw: { forward: 'kutoka bandarini kwenda bara', reverse: 'kwenda bandarini', both: 'pande zote' },
};

/** Yes and no, for true and false values in a file. */
export const REPORT_YES_NO: Readonly<Record<ReportLanguage, readonly [string, string]>> = { en: ['yes', 'no'], sw: ['ndiyo', 'hapana'] };
