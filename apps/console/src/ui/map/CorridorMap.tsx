import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Map as MapLibre, NavigationControl, setWorkerUrl, type GeoJSONSource, type LngLatBoundsLike, type Map as MapLibreMap, type MapMouseEvent } from 'maplibre-gl';
import 'maplibre-gl/dist/maplibre-gl.css';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import type { FeatureCollection } from 'geojson';
import { useServer } from '../../session/useSession';
import { baseStyle, mapSource } from './base-style';
import { loadCountries } from './countries';
import { corridorLines, placePoints } from './geodata-layers';
import { installLabelImages } from './label-images';
import { addOverlays, type OverlaySource } from './layers';

export type MapData = Partial<Record<Exclude<OverlaySource, 'countries' | 'corridors' | 'places'>, FeatureCollection | null>>;

export interface CorridorMapProps {
  /** Overlay data by concern; a source is updated in place when its object changes. */
  data: MapData;
  /** Bounds to show; the map moves when this value changes. */
  fit?: LngLatBoundsLike | null;
  onTruckClick?: (deviceId: number) => void;
  onMapClick?: (lngLat: [number, number]) => void;
  /** Accessible description of what the map shows (e.g. "24 trucks"). */
  label: string;
  className?: string;
  children?: ReactNode;
  /** Called once the map has loaded (the live-map benchmark times its renders). */
  onLoad?: (map: MapLibreMap) => void;
}

// MapLibre's worker is its own file; served as a hashed asset beside the console
setWorkerUrl(workerUrl);

const EAST_AFRICA: LngLatBoundsLike = [[28.5, -11], [42, 4.5]];

/**
 * The one component that owns MapLibre: an offline base (country outlines) or the server's tile
 * style, the corridors and places of packages/geodata, and overlay sources updated in place.
 */
export function CorridorMap({ data, fit, onTruckClick, onMapClick, label, className, children, onLoad }: CorridorMapProps) {
  const container = useRef<HTMLDivElement>(null);
  const mapRef = useRef<MapLibreMap | null>(null);
  const [ready, setReady] = useState(false);
  const [failed, setFailed] = useState(false);
  const server = useServer();
  const handlers = useRef({ onTruckClick, onMapClick, onLoad });
  handlers.current = { onTruckClick, onMapClick, onLoad };
  const setting = server.data?.map ?? null;
  const serverLoaded = !server.isPending;

  useEffect(() => {
    if (!container.current || !serverLoaded) return;
    const online = mapSource(setting);
    let map: MapLibreMap;
    try {
      map = new MapLibre({
        container: container.current,
        style: online.style ?? baseStyle(online.tiles ?? null),
        bounds: EAST_AFRICA,
        attributionControl: online.style || online.tiles ? { compact: true } : false,
        dragRotate: false,
        pitchWithRotate: false,
      });
    } catch {
      setFailed(true); // no WebGL in this browser
      return;
    }
    mapRef.current = map;
    map.addControl(new NavigationControl({ showCompass: false }), 'top-right');
    map.touchZoomRotate.disableRotation();
    installLabelImages(map);
    map.on('load', () => {
      addOverlays(map);
      (map.getSource('corridors') as GeoJSONSource).setData(corridorLines());
      (map.getSource('places') as GeoJSONSource).setData(placePoints());
      if (!online.style && !online.tiles) {
        loadCountries()
          .then((fc) => (map.getSource('countries') as GeoJSONSource | undefined)?.setData(fc))
          .catch(() => undefined); // the sea and the overlays still show; the outlines come back on the next load
      }
      setReady(true);
      handlers.current.onLoad?.(map);
    });
    map.on('click', 'trucks', (e) => {
      const id = Number(e.features?.[0]?.properties?.deviceId);
      if (id) handlers.current.onTruckClick?.(id);
    });
    map.on('click', 'truck-clusters', (e) => {
      const f = e.features?.[0];
      const src = map.getSource('trucks') as GeoJSONSource;
      if (!f || f.geometry.type !== 'Point') return;
      const center = f.geometry.coordinates as [number, number];
      void src.getClusterExpansionZoom(Number(f.properties?.cluster_id)).then((zoom) => map.easeTo({ center, zoom }));
    });
    map.on('click', (e: MapMouseEvent) => handlers.current.onMapClick?.([e.lngLat.lng, e.lngLat.lat]));
    // drawn and settled (screenshots wait for it)
    map.on('idle', () => container.current?.parentElement?.setAttribute('data-idle', 'true'));
    map.on('dataloading', () => container.current?.parentElement?.setAttribute('data-idle', 'false'));
    // where the map looks, for people debugging and for the browser tests
    map.on('moveend', () => {
      const c = map.getCenter();
      container.current?.parentElement?.setAttribute('data-view', `${c.lng.toFixed(4)},${c.lat.toFixed(4)},${map.getZoom().toFixed(2)}`);
    });
    for (const layer of ['trucks', 'truck-clusters']) {
      map.on('mouseenter', layer, () => (map.getCanvas().style.cursor = 'pointer'));
      map.on('mouseleave', layer, () => (map.getCanvas().style.cursor = ''));
    }
    return () => {
      mapRef.current = null;
      setReady(false);
      map.remove();
    };
  }, [serverLoaded, setting]);

  // each overlay updated in place when its data changes
  const { trucks, planned, track, flags, draft, fences } = data;
  useEffect(() => setSource(mapRef.current, ready, 'trucks', trucks), [ready, trucks]);
  useEffect(() => setSource(mapRef.current, ready, 'planned', planned), [ready, planned]);
  useEffect(() => setSource(mapRef.current, ready, 'track', track), [ready, track]);
  useEffect(() => setSource(mapRef.current, ready, 'flags', flags), [ready, flags]);
  useEffect(() => setSource(mapRef.current, ready, 'draft', draft), [ready, draft]);
  useEffect(() => setSource(mapRef.current, ready, 'fences', fences), [ready, fences]);
  useEffect(() => {
    if (ready && fit) mapRef.current?.fitBounds(fit, { padding: 48, maxZoom: 12, duration: 0 });
  }, [ready, fit]);

  return (
    <div className={`map ${className ?? ''}`} role="region" aria-label={label} data-ready={ready ? 'true' : 'false'}>
      <div ref={container} className="map-canvas" />
      {failed && <p className="map-fallback">{label}</p>}
      {children}
    </div>
  );
}

const EMPTY: FeatureCollection = { type: 'FeatureCollection', features: [] };

function setSource(map: MapLibreMap | null, ready: boolean, id: OverlaySource, fc: FeatureCollection | null | undefined): void {
  if (!map || !ready || fc === undefined) return;
  (map.getSource(id) as GeoJSONSource | undefined)?.setData(fc ?? EMPTY);
}
