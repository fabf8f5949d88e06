import { useEffect, useRef } from 'react';
import type { GeoJSONSource, GeoJSONSourceSpecification, LayerSpecification, Map as MapLibreMap, MapLayerMouseEvent } from 'maplibre-gl';
import type { FeatureCollection } from 'geojson';
import { addInSlot, forgetLayer, type Slot } from './layer-order';
import { isRemoved, useMapInstance } from './map-context';

const EMPTY: FeatureCollection = { type: 'FeatureCollection', features: [] };

/** A layer of a GeoJSON source, without its source (the hook fills it in). */
export type SourceLayer = LayerSpecification extends infer L ? (L extends { source: unknown } ? Omit<L, 'source'> : never) : never;

export interface GeoJsonLayerOptions {
  /** The source id; the layers' ids are their own. */
  id: string;
  slot: Slot;
  layers: readonly SourceLayer[];
  /** Options of the source (clustering); read once, when the source is added. */
  source?: Omit<GeoJSONSourceSpecification, 'type' | 'data'>;
  /** The data; set in place (setData) whenever this object changes, never re-added. null draws nothing. */
  data: FeatureCollection | null | undefined;
  /** Clicks on a feature of one of `clickLayers` (default: every layer). */
  onClick?: (e: MapLayerMouseEvent, map: MapLibreMap) => void;
  clickLayers?: readonly string[];
}

/**
 * One concern's GeoJSON source and its layers on the map of the enclosing CorridorMap: added once
 * in its slot of the drawing order, its data updated in place, removed with the component. The
 * cursor turns to a pointer over clickable layers.
 */
export function useGeoJsonLayer({ id, slot, layers, source, data, onClick, clickLayers }: GeoJsonLayerOptions): void {
  const map = useMapInstance();
  const click = useRef(onClick);
  click.current = onClick;
  const clickable = Boolean(onClick);
  const spec = useRef({ layers, source, clickLayers });

  useEffect(() => {
    if (!map) return;
    const { layers: ls, source: opts, clickLayers: targets } = spec.current;
    map.addSource(id, { type: 'geojson', data: EMPTY, ...opts });
    for (const l of ls) addInSlot(map, slot, { ...l, source: id } as LayerSpecification);
    const handlers: ['click' | 'mouseenter' | 'mouseleave', string, (e: MapLayerMouseEvent) => void][] = [];
    if (clickable) {
      for (const layerId of targets ?? ls.map((l) => l.id)) {
        handlers.push(
          ['click', layerId, (e) => click.current?.(e, map)],
          ['mouseenter', layerId, () => void (map.getCanvas().style.cursor = 'pointer')],
          ['mouseleave', layerId, () => void (map.getCanvas().style.cursor = '')],
        );
      }
      for (const [type, layerId, h] of handlers) map.on(type, layerId, h);
    }
    return () => {
      if (isRemoved(map)) return; // the map itself is gone
      for (const [type, layerId, h] of handlers) map.off(type, layerId, h);
      for (const l of ls) {
        if (map.getLayer(l.id)) map.removeLayer(l.id);
        forgetLayer(map, l.id);
      }
      if (map.getSource(id)) map.removeSource(id);
    };
  }, [map, id, slot, clickable]);

  useEffect(() => {
    if (!map || data === undefined) return;
    (map.getSource(id) as GeoJSONSource | undefined)?.setData(data ?? EMPTY);
  }, [map, id, data]);
}
