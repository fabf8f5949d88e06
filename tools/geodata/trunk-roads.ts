/**
 * The main road network of East Africa beyond the two corridors (whose detailed lines are in
 * packages/geodata/src/corridors.ts), as the towns each trunk road links, in order. Which towns a
 * road links is public road-network fact (national road numbering, the EAC and Northern/Central
 * Corridor network maps). A town given by name is placed from GeoNames (cities500) or from the
 * corridors' waypoints; a town GeoNames lacks is given with its position [lon, lat] read from public
 * maps (to about 2 km), and joins the gazetteer too (source "map").
 *
 * The lines are schematic: straight between consecutive towns, so within a few km of the carriageway
 * where towns are close and further where they are far apart (e.g. Isiolo – Marsabit). They give the
 * map its network and the dispatcher orientation; they are not for distance or routing.
 */
export type RoadTown = string | readonly [name: string, lon: number, lat: number];

export interface TrunkRoad {
  /** Road numbers, as signed (Kenya's old numbering, Tanzania's T numbers, Uganda's and Rwanda's national roads). */
  readonly ref: string;
  readonly name: string;
  /** Towns in order, each "CC:Name" (ISO 3166-1 alpha-2) or ["CC:Name", lon, lat]. */
  readonly towns: readonly RoadTown[];
}

export const TRUNK_ROADS: readonly TrunkRoad[] = [
  // Kenya
  {
    ref: 'A2',
    name: 'Nairobi – Thika – Nanyuki – Isiolo – Moyale',
    towns: [
      'KE:Nairobi',
      'KE:Ruiru',
      'KE:Thika',
      'KE:Sagana',
      ['KE:Karatina', 37.129, -0.483],
      'KE:Naro Moru',
      'KE:Nanyuki',
      ['KE:Timau', 37.237, 0.088],
      'KE:Isiolo',
      ['KE:Archers Post', 37.677, 0.645],
      'KE:Marsabit',
      'KE:Moyale',
    ],
  },
  {
    ref: 'A104',
    name: 'Athi River – Namanga – Arusha',
    towns: ['KE:Athi River', ['KE:Kitengela', 36.958, -1.476], 'KE:Kajiado', 'TZ:Namanga', 'TZ:Longido', 'TZ:Arusha'],
  },
  { ref: 'A3', name: 'Thika – Garissa', towns: ['KE:Thika', ['KE:Matuu', 37.537, -1.149], 'KE:Mwingi', 'KE:Garissa'] },
  {
    ref: 'B8',
    name: 'Mombasa – Malindi – Garsen',
    towns: ['KE:Mombasa', ['KE:Mtwapa', 39.745, -3.945], 'KE:Kilifi', 'KE:Malindi', ['KE:Garsen', 40.116, -2.27]],
  },
  {
    ref: 'A14',
    name: 'Mombasa – Lunga Lunga – Tanga',
    towns: [
      'KE:Mombasa',
      ['KE:Ukunda', 39.566, -4.283],
      ['KE:Msambweni', 39.481, -4.47],
      ['KE:Lunga Lunga', 39.123, -4.555],
      ['TZ:Horohoro', 39.135, -4.61],
      'TZ:Tanga',
    ],
  },
  {
    ref: 'A23',
    name: 'Voi – Taveta – Moshi',
    towns: ['KE:Voi', 'KE:Mwatate', 'KE:Taveta', ['TZ:Holili', 37.645, -3.383], ['TZ:Himo', 37.545, -3.388], 'TZ:Moshi'],
  },
  {
    ref: 'A1',
    name: 'Sirari – Kisii – Kisumu – Kitale – Lodwar – Lokichogio',
    towns: [
      'TZ:Sirari',
      ['KE:Isebania', 34.478, -1.236],
      'KE:Migori',
      'KE:Kisii',
      'KE:Kisumu',
      'KE:Kakamega',
      'KE:Webuye',
      'KE:Kitale',
      'KE:Kapenguria',
      'KE:Lodwar',
      ['KE:Lokichogio', 34.349, 4.204],
    ],
  },
  {
    ref: 'B1',
    name: 'Mau Summit – Kericho – Kisumu – Busia',
    towns: ['KE:Mau Summit', 'KE:Kericho', 'KE:Ahero', 'KE:Kisumu', ['KE:Maseno', 34.6, -0.004], 'KE:Luanda', 'KE:Busia'],
  },
  {
    ref: 'B3',
    name: 'Mai Mahiu – Narok – Bomet – Kisii',
    towns: ['KE:Rironi', ['KE:Mai Mahiu', 36.586, -1.019], 'KE:Narok', ['KE:Bomet', 35.342, -0.785], 'KE:Sotik', 'KE:Kisii'],
  },
  { ref: 'B6', name: 'Thika – Embu – Meru', towns: ['KE:Thika', 'KE:Embu', 'KE:Meru'] },

  // Tanzania
  {
    ref: 'T1',
    name: 'Morogoro – Iringa – Mbeya – Tunduma',
    towns: ['TZ:Morogoro', 'TZ:Mikumi', 'TZ:Iringa', ['TZ:Makambako', 34.834, -8.846], 'TZ:Mbeya', 'TZ:Tunduma'],
  },
  {
    ref: 'T2',
    name: 'Chalinze – Segera – Moshi – Arusha',
    towns: [
      'TZ:Chalinze',
      ['TZ:Segera', 38.559, -5.325],
      ['TZ:Korogwe', 38.46, -5.155],
      ['TZ:Mombo', 38.285, -4.885],
      'TZ:Same',
      'TZ:Himo',
      'TZ:Moshi',
      'TZ:Usa River',
      'TZ:Arusha',
    ],
  },
  { ref: 'T13', name: 'Segera – Tanga', towns: ['TZ:Segera', 'TZ:Muheza', 'TZ:Tanga'] },
  { ref: 'T5', name: 'Arusha – Babati – Dodoma – Iringa', towns: ['TZ:Arusha', 'TZ:Babati', 'TZ:Kondoa', 'TZ:Dodoma', 'TZ:Iringa'] },
  { ref: 'T8', name: 'Isaka – Shinyanga – Mwanza', towns: ['TZ:Isaka', 'TZ:Shinyanga', 'TZ:Mwanza'] },
  { ref: 'T17', name: 'Mwanza – Musoma – Sirari', towns: ['TZ:Mwanza', 'TZ:Bunda', 'TZ:Musoma', 'TZ:Tarime', 'TZ:Sirari'] },
  { ref: 'T8', name: 'Nzega – Tabora', towns: ['TZ:Nzega', 'TZ:Tabora'] },
  {
    ref: 'T4',
    name: 'Lusahunga – Biharamulo – Bukoba – Mutukula – Masaka',
    towns: ['TZ:Lusahunga', 'TZ:Biharamulo', 'TZ:Muleba', 'TZ:Bukoba', ['TZ:Mutukula', 31.418, -1.001], 'UG:Kyotera', 'UG:Masaka'],
  },
  { ref: 'T9', name: 'Nyakanazi – Kasulu – Kigoma', towns: ['TZ:Nyakanazi', 'TZ:Kibondo', 'TZ:Kasulu', 'TZ:Kigoma'] },
  { ref: 'T7', name: 'Dar es Salaam – Lindi – Mtwara', towns: ['TZ:Dar es Salaam', 'TZ:Kibiti', 'TZ:Lindi', 'TZ:Mtwara'] },
  { ref: 'T6', name: 'Makambako – Njombe – Songea', towns: ['TZ:Makambako', 'TZ:Njombe', 'TZ:Songea'] },
  { ref: 'T9', name: 'Tunduma – Sumbawanga', towns: ['TZ:Tunduma', 'TZ:Sumbawanga'] },

  // Uganda
  {
    ref: 'A109',
    name: 'Malaba – Jinja – Kampala',
    towns: ['KE:Malaba', 'UG:Tororo', 'UG:Iganga', 'UG:Jinja', 'UG:Lugazi', 'UG:Mukono', 'UG:Kampala'],
  },
  { ref: 'A104', name: 'Busia – Bugiri – Iganga', towns: ['UG:Busia', 'UG:Bugiri', 'UG:Iganga'] },
  {
    ref: 'A109',
    name: 'Kampala – Masaka – Mbarara – Kabale – Katuna',
    towns: ['UG:Kampala', 'UG:Mpigi', 'UG:Masaka', 'UG:Lyantonde', 'UG:Mbarara', 'UG:Ntungamo', 'UG:Kabale', ['UG:Katuna', 30.01, -1.4]],
  },
  {
    ref: 'A104',
    name: 'Kampala – Gulu – Nimule – Juba',
    towns: [
      'UG:Kampala',
      'UG:Luwero',
      'UG:Nakasongola',
      ['UG:Karuma', 32.245, 2.25],
      'UG:Gulu',
      ['UG:Elegu', 32.07, 3.58],
      ['SS:Nimule', 32.055, 3.598],
      'SS:Juba',
    ],
  },
  {
    ref: 'A109',
    name: 'Kampala – Fort Portal – Kasese – Mpondwe',
    towns: ['UG:Kampala', 'UG:Mityana', 'UG:Mubende', 'UG:Kyenjojo', 'UG:Fort Portal', 'UG:Kasese', ['UG:Mpondwe', 29.735, 0.038]],
  },
  { ref: 'A104', name: 'Tororo – Mbale – Soroti – Lira – Gulu', towns: ['UG:Tororo', 'UG:Mbale', 'UG:Soroti', 'UG:Lira', 'UG:Gulu'] },

  // Rwanda and Burundi
  { ref: 'RN3', name: 'Katuna – Kigali', towns: ['UG:Katuna', 'RW:Byumba', 'RW:Kigali'] },
  {
    ref: 'RN3',
    name: 'Kigali – Kayonza – Rusumo',
    towns: ['RW:Kigali', 'RW:Rwamagana', ['RW:Kayonza', 30.5, -1.9], 'RW:Kibungo', 'TZ:Rusumo'],
  },
  { ref: 'RN4', name: 'Kigali – Musanze – Rubavu – Goma', towns: ['RW:Kigali', 'RW:Musanze', 'RW:Gisenyi', 'CD:Goma'] },
  {
    ref: 'RN1',
    name: 'Kigali – Huye – Kayanza – Bujumbura',
    towns: ['RW:Kigali', 'RW:Gitarama', 'RW:Nyanza', 'RW:Butare', 'BI:Kayanza', 'BI:Bujumbura'],
  },
  {
    ref: 'RN6',
    name: 'Kobero – Muyinga – Gitega – Bujumbura',
    towns: [['BI:Kobero', 30.46, -2.87], 'BI:Muyinga', 'BI:Gitega', 'BI:Bujumbura'],
  },
  { ref: 'RN5', name: 'Bujumbura – Uvira – Bukavu', towns: ['BI:Bujumbura', 'CD:Uvira', 'CD:Bukavu'] },

  // South Sudan, eastern DR Congo, Zambia
  { ref: 'A1', name: 'Juba – Torit – Kapoeta – Lokichogio', towns: ['SS:Juba', 'SS:Torit', 'SS:Kapoeta', 'KE:Lokichogio'] },
  { ref: 'A43', name: 'Juba – Yei', towns: ['SS:Juba', 'SS:Yei'] },
  {
    ref: 'N2',
    name: 'Mpondwe – Beni – Butembo – Goma',
    towns: [
      'UG:Mpondwe',
      ['CD:Kasindi', 29.71, 0.04],
      'CD:Beni',
      'CD:Butembo',
      ['CD:Lubero', 29.24, -0.16],
      ['CD:Rutshuru', 29.45, -1.185],
      'CD:Goma',
    ],
  },
  { ref: 'T2', name: 'Nakonde – Isoka – Mpika', towns: ['TZ:Tunduma', 'ZM:Nakonde', 'ZM:Isoka', 'ZM:Mpika'] },
];
