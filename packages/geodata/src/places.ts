/**
 * Border posts, ports, inland depots, weighbridges and approved truck parking on and around the
 * corridors, GeoJSON order [lon, lat]. Centres are public map facts rounded to ~100 m; polygons of
 * the large sites are simplified outlines. `corridors` names the corridor lines a place sits on
 * (within a few km); places off both lines (other border posts, Naivasha ICD) list none.
 */
import type { CorridorId, CountryCode, LonLat, Ring } from './types';

export type PlaceKind = 'border_post' | 'port' | 'inland_depot' | 'weighbridge' | 'parking';

export interface Place {
  readonly id: string;
  readonly name: string;
  readonly kind: PlaceKind;
  readonly country: CountryCode;
  readonly center: LonLat;
  readonly radiusMetres: number;
  /** Outline of large sites (ports, depots) as a closed ring. */
  readonly polygon?: Ring;
  readonly corridors: readonly CorridorId[];
  /** For border posts: the neighbouring country across the border. */
  readonly crossesTo?: CountryCode;
}

const closed = (...coords: LonLat[]): Ring => {
  const first = coords[0];
  if (!first) throw new Error('empty ring');
  return [...coords, first];
};

export const BORDER_POSTS: readonly Place[] = [
  {
    id: 'ke-malaba',
    name: 'Malaba OSBP',
    kind: 'border_post',
    country: 'KE',
    crossesTo: 'UG',
    center: [34.276, 0.637],
    radiusMetres: 800,
    corridors: ['northern'],
  },
  {
    id: 'ke-busia',
    name: 'Busia OSBP',
    kind: 'border_post',
    country: 'KE',
    crossesTo: 'UG',
    center: [34.09, 0.463],
    radiusMetres: 800,
    corridors: [],
  },
  {
    id: 'ke-namanga',
    name: 'Namanga OSBP',
    kind: 'border_post',
    country: 'KE',
    crossesTo: 'TZ',
    center: [36.788, -2.545],
    radiusMetres: 800,
    corridors: [],
  },
  {
    id: 'tz-holili',
    name: 'Holili / Taveta OSBP',
    kind: 'border_post',
    country: 'TZ',
    crossesTo: 'KE',
    center: [37.64, -3.383],
    radiusMetres: 800,
    corridors: [],
  },
  {
    id: 'ke-isebania',
    name: 'Isebania / Sirari OSBP',
    kind: 'border_post',
    country: 'KE',
    crossesTo: 'TZ',
    center: [34.477, -1.243],
    radiusMetres: 800,
    corridors: [],
  },
  {
    id: 'tz-mutukula',
    name: 'Mutukula OSBP',
    kind: 'border_post',
    country: 'TZ',
    crossesTo: 'UG',
    center: [31.418, -1.001],
    radiusMetres: 800,
    corridors: [],
  },
  {
    id: 'tz-rusumo',
    name: 'Rusumo OSBP',
    kind: 'border_post',
    country: 'TZ',
    crossesTo: 'RW',
    center: [30.784, -2.381],
    radiusMetres: 800,
    corridors: ['central'],
  },
  {
    id: 'tz-kabanga',
    name: 'Kabanga / Kobero OSBP',
    kind: 'border_post',
    country: 'TZ',
    crossesTo: 'BI',
    center: [30.475, -2.876],
    radiusMetres: 800,
    corridors: [],
  },
  {
    id: 'tz-tunduma',
    name: 'Tunduma / Nakonde OSBP',
    kind: 'border_post',
    country: 'TZ',
    crossesTo: 'ZM',
    center: [32.765, -9.303],
    radiusMetres: 1000,
    corridors: [],
  },
];

export const PORTS: readonly Place[] = [
  {
    id: 'ke-mombasa-port',
    name: 'Port of Mombasa (Kilindini and Kipevu)',
    kind: 'port',
    country: 'KE',
    center: [39.646, -4.054],
    radiusMetres: 2500,
    polygon: closed(
      [39.628, -4.037],
      [39.643, -4.033],
      [39.656, -4.04],
      [39.66, -4.06],
      [39.656, -4.073],
      [39.643, -4.07],
      [39.638, -4.055],
      [39.63, -4.045],
    ),
    corridors: ['northern'],
  },
  {
    id: 'tz-dar-port',
    name: 'Port of Dar es Salaam',
    kind: 'port',
    country: 'TZ',
    center: [39.288, -6.835],
    radiusMetres: 2000,
    polygon: closed([39.278, -6.823], [39.296, -6.818], [39.301, -6.833], [39.296, -6.852], [39.28, -6.855], [39.274, -6.84]),
    corridors: ['central'],
  },
];

export const INLAND_DEPOTS: readonly Place[] = [
  {
    id: 'ke-nairobi-icd',
    name: 'Inland Container Depot Nairobi (Embakasi)',
    kind: 'inland_depot',
    country: 'KE',
    center: [36.9, -1.33],
    radiusMetres: 900,
    polygon: closed([36.893, -1.325], [36.906, -1.324], [36.908, -1.334], [36.895, -1.336]),
    corridors: ['northern'],
  },
  {
    id: 'ke-naivasha-icd',
    name: 'Naivasha Inland Container Depot (Mai Mahiu road)',
    kind: 'inland_depot',
    country: 'KE',
    center: [36.42, -0.91],
    radiusMetres: 900,
    polygon: closed([36.414, -0.905], [36.426, -0.905], [36.426, -0.915], [36.414, -0.915]),
    corridors: [],
  },
  {
    id: 'tz-isaka-dry-port',
    name: 'Isaka Dry Port',
    kind: 'inland_depot',
    country: 'TZ',
    center: [32.931, -3.897],
    radiusMetres: 400,
    polygon: closed([32.9295, -3.8955], [32.9325, -3.8955], [32.9325, -3.8985], [32.9295, -3.8985]),
    corridors: ['central'],
  },
];

export const WEIGHBRIDGES: readonly Place[] = [
  {
    id: 'ke-wb-mariakani',
    name: 'Mariakani weighbridge',
    kind: 'weighbridge',
    country: 'KE',
    center: [39.486, -3.879],
    radiusMetres: 300,
    corridors: ['northern'],
  },
  {
    id: 'ke-wb-athi-river',
    name: 'Athi River (Mlolongo) weighbridge',
    kind: 'weighbridge',
    country: 'KE',
    center: [36.949, -1.408],
    radiusMetres: 300,
    corridors: ['northern'],
  },
  {
    id: 'ke-wb-gilgil',
    name: 'Gilgil weighbridge',
    kind: 'weighbridge',
    country: 'KE',
    center: [36.331, -0.514],
    radiusMetres: 300,
    corridors: ['northern'],
  },
  {
    id: 'ke-wb-webuye',
    name: 'Webuye weighbridge',
    kind: 'weighbridge',
    country: 'KE',
    center: [34.79, 0.615],
    radiusMetres: 300,
    corridors: ['northern'],
  },
  {
    id: 'tz-wb-vigwaza',
    name: 'Vigwaza weighbridge',
    kind: 'weighbridge',
    country: 'TZ',
    center: [38.595, -6.636],
    radiusMetres: 300,
    corridors: ['central'],
  },
  {
    id: 'tz-wb-mikese',
    name: 'Mikese weighbridge',
    kind: 'weighbridge',
    country: 'TZ',
    center: [37.905, -6.78],
    radiusMetres: 300,
    corridors: ['central'],
  },
  {
    id: 'tz-wb-mwendakulima',
    name: 'Mwendakulima weighbridge (Kahama)',
    kind: 'weighbridge',
    country: 'TZ',
    center: [32.64, -3.84],
    radiusMetres: 300,
    corridors: ['central'],
  },
  {
    id: 'tz-wb-nyakanazi',
    name: 'Nyakanazi weighbridge',
    kind: 'weighbridge',
    country: 'TZ',
    center: [31.226, -3.056],
    radiusMetres: 300,
    corridors: ['central'],
  },
];

const parking = (id: string, name: string, country: CountryCode, corridor: CorridorId, center: LonLat): Place => ({
  id,
  name,
  kind: 'parking',
  country,
  center,
  radiusMetres: 400,
  corridors: [corridor],
});

export const TRUCK_PARKING: readonly Place[] = [
  parking('ke-pk-mariakani', 'Mariakani truck stop', 'KE', 'northern', [39.466, -3.859]),
  parking('ke-pk-maungu', 'Maungu truck stop', 'KE', 'northern', [38.746, -3.557]),
  parking('ke-pk-voi', 'Voi truck park', 'KE', 'northern', [38.567, -3.391]),
  parking('ke-pk-mtito-andei', 'Mtito Andei truck stop', 'KE', 'northern', [38.163, -2.685]),
  parking('ke-pk-makindu', 'Makindu truck stop', 'KE', 'northern', [37.82, -2.278]),
  parking('ke-pk-emali', 'Emali truck stop', 'KE', 'northern', [37.47, -2.081]),
  parking('ke-pk-salgaa', 'Salgaa truck stop', 'KE', 'northern', [35.818, -0.199]),
  parking('ke-pk-eldoret', 'Eldoret truck park', 'KE', 'northern', [35.286, 0.492]),
  parking('ke-pk-malaba', 'Malaba truck park', 'KE', 'northern', [34.29, 0.633]),
  parking('tz-pk-chalinze', 'Chalinze truck stop', 'TZ', 'central', [38.357, -6.639]),
  parking('tz-pk-gairo', 'Gairo truck stop', 'TZ', 'central', [36.868, -6.139]),
  parking('tz-pk-dodoma', 'Dodoma truck park (Ihumwa)', 'TZ', 'central', [35.88, -6.174]),
  parking('tz-pk-manyoni', 'Manyoni truck stop', 'TZ', 'central', [34.836, -5.742]),
  parking('tz-pk-singida', 'Singida truck park', 'TZ', 'central', [34.742, -4.812]),
  parking('tz-pk-nzega', 'Nzega truck stop', 'TZ', 'central', [33.182, -4.21]),
  parking('tz-pk-kahama', 'Kahama truck park', 'TZ', 'central', [32.597, -3.831]),
  parking('tz-pk-nyakanazi', 'Nyakanazi truck stop', 'TZ', 'central', [31.218, -3.047]),
  parking('tz-pk-benaco', 'Benaco truck stop', 'TZ', 'central', [30.869, -2.538]),
];

export const PLACES: readonly Place[] = [...BORDER_POSTS, ...PORTS, ...INLAND_DEPOTS, ...WEIGHBRIDGES, ...TRUCK_PARKING];

export function placesOnCorridor(id: CorridorId, kinds?: readonly PlaceKind[]): Place[] {
  return PLACES.filter((p) => p.corridors.includes(id) && (!kinds || kinds.includes(p.kind)));
}

export function placeById(id: string): Place | undefined {
  return PLACES.find((p) => p.id === id);
}
