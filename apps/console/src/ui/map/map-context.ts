import { createContext, useContext } from 'react';
import type { Map as MapLibreMap } from 'maplibre-gl';

/** The one MapLibre map of a CorridorMap, once its style has loaded (null before, and without WebGL). */
export const MapContext = createContext<MapLibreMap | null>(null);

/** The map the layer components draw on; null until it is ready. */
export const useMapInstance = (): MapLibreMap | null => useContext(MapContext);

const removed = new WeakSet<MapLibreMap>();
/** The owner marks its map before removing it: layer components then have nothing to take down. */
export const markRemoved = (map: MapLibreMap): void => void removed.add(map);
export const isRemoved = (map: MapLibreMap): boolean => removed.has(map);
