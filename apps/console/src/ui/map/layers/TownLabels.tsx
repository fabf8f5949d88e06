import type { ExpressionSpecification, Map as MapLibreMap } from 'maplibre-gl';
import { useEffect, useMemo } from 'react';
import { loadTowns } from '../basemap-data';
import { ensureLabelImage } from '../label-images';
import { useMapInstance } from '../map-context';
import { useGeoJsonLayer, type SourceLayer } from '../useGeoJsonLayer';
import { useLoaded } from './BaseRoads';

/** From which zoom the towns of each rank show: capitals and cities of a million first, villages last. */
const RANK_ZOOM: [number, number][] = [
  [1, 3.5],
  [2, 5.5],
  [3, 7],
  [4, 8.5],
];
const rank = (r: number): ExpressionSpecification => ['==', ['get', 'rank'], r];

// the villages' layers first: a layer drawn higher is placed first, so a city's name wins over a village's
const LAYERS: SourceLayer[] = [...RANK_ZOOM].reverse().flatMap(([r, minzoom]): SourceLayer[] => [
  {
    id: `towns-${r}`,
    type: 'circle',
    minzoom,
    filter: rank(r),
    paint: { 'circle-radius': r === 1 ? 3.5 : 2.5, 'circle-color': '#334155', 'circle-stroke-color': '#ffffff', 'circle-stroke-width': 1 },
  },
  {
    id: `town-labels-${r}`,
    type: 'symbol',
    minzoom,
    filter: rank(r),
    layout: {
      'icon-image': ['concat', `town:${r}:`, ['get', 'name']],
      'icon-anchor': 'bottom',
      'icon-offset': [0, -3],
      'icon-allow-overlap': false,
      'symbol-sort-key': ['-', 0, ['get', 'population']],
    },
  },
]);

/**
 * Towns and cities of the base map with their names (offline: GeoNames through packages/geodata,
 * names drawn on a canvas by label-images.ts), more of them as the map zooms in; a bigger town wins
 * a place where names would overlap.
 */
export function TownLabels() {
  const map = useMapInstance();
  const loaded = useLoaded(loadTowns);
  // the names of the towns the opening zoom shows are drawn before the data goes in
  const data = useMemo(() => {
    if (!map || !loaded) return null;
    for (const f of loaded.features)
      if (Number(f.properties?.rank) <= 2) ensureLabelImage(map, `town:${String(f.properties?.rank)}:${String(f.properties?.name)}`);
    return loaded;
  }, [map, loaded]);
  useGeoJsonLayer({ id: 'towns', slot: 'towns', layers: LAYERS, data });
  useShownNames(map);
  return null;
}

const LABEL_LAYERS = LAYERS.filter((l) => l.type === 'symbol').map((l) => l.id);

/** At most one look at the placed names per this long while the map keeps drawing. */
const SHOWN_NAMES_EVERY_MS = 1000;

/**
 * The town names the map has placed in view, on the map's box as data-town-labels ("Voi|Mwatate"):
 * for people debugging and for the browser tests, which cannot read a canvas. Written when the map
 * settles, and at most once a second while it draws: a live map with moving trucks may not settle.
 */
function useShownNames(map: MapLibreMap | null): void {
  useEffect(() => {
    if (!map) return;
    const box = map.getContainer().parentElement;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const write = () => {
      clearTimeout(timer);
      timer = undefined;
      const names = new Set(
        map.queryRenderedFeatures({ layers: LABEL_LAYERS.filter((id) => map.getLayer(id)) }).map((f) => String(f.properties?.name)),
      );
      box?.setAttribute('data-town-labels', [...names].sort().join('|'));
    };
    const drawn = () => {
      timer ??= setTimeout(write, SHOWN_NAMES_EVERY_MS);
    };
    map.on('idle', write);
    map.on('render', drawn);
    return () => {
      clearTimeout(timer);
      map.off('idle', write);
      map.off('render', drawn);
    };
  }, [map]);
}
