import type { Map as MapLibreMap } from 'maplibre-gl';

/**
 * Drawing order of the layer components, bottom first. A layer component names its slot, and its
 * layers go below the first layer of a later slot already on the map: the order on screen does not
 * depend on which component mounted first.
 */
const SLOTS = [
  'countries',
  'roads',
  'fences',
  'corridors',
  'planned',
  'track',
  'towns',
  'places',
  'draft',
  'marks',
  'flags',
  'trucks',
  'cursor',
] as const;
export type Slot = (typeof SLOTS)[number];

const slotOfLayer = new WeakMap<MapLibreMap, Map<string, number>>();

/** Adds a layer in its slot's place; remembers the slot for the layers added after it. */
export function addInSlot(map: MapLibreMap, slot: Slot, layer: Parameters<MapLibreMap['addLayer']>[0]): void {
  let slots = slotOfLayer.get(map);
  if (!slots) slotOfLayer.set(map, (slots = new Map()));
  const rank = SLOTS.indexOf(slot);
  const before = map.getLayersOrder().find((id) => (slots.get(id) ?? -1) > rank);
  map.addLayer(layer, before);
  slots.set(layer.id, rank);
}

/** Forgets a layer removed from the map. */
export function forgetLayer(map: MapLibreMap, id: string): void {
  slotOfLayer.get(map)?.delete(id);
}
