/**
 * What the offline gazetteer covers (packages/geodata/data, built by tools/geodata/build-basemap.ts).
 * Boxes are [west, south, east, north] in degrees.
 */
export type Box = readonly [west: number, south: number, east: number, north: number];

/** Countries whose every GeoNames town (cities500) is in the gazetteer. */
export const WHOLE_COUNTRIES: readonly string[] = ['KE', 'TZ', 'UG', 'RW', 'BI', 'SS'];

/** The neighbours' towns inside this box are in too: eastern DR Congo, northern Zambia, Malawi and Mozambique, southern Ethiopia and Somalia. */
export const NEIGHBOUR_BOX: Box = [26, -12.5, 42.5, 6.5];

/**
 * Country outlines cover this box (Natural Earth 1:10m): inside it a point outside every outline is
 * at sea (or on a lake outside any country, which Natural Earth does not have in the region); outside
 * it the country of a point is not known.
 */
export const COVERAGE_BOX: Box = [10, -30, 55, 25];
