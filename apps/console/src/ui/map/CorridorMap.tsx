import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Map as MapLibre, NavigationControl, setWorkerUrl, type Map as MapLibreMap, type MapMouseEvent } from 'maplibre-gl';
import 'maplibre-gl/dist/maplibre-gl.css';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import { useServer } from '../../session/useSession';
import { baseStyle, mapSource } from './base-style';
import { installLabelImages } from './label-images';
import { MapContext, markRemoved } from './map-context';
import { BaseRoads } from './layers/BaseRoads';
import { CorridorLines } from './layers/CorridorLines';
import { CountryOutlines } from './layers/CountryOutlines';
import { PlaceLabels } from './layers/PlaceLabels';
import { TownLabels } from './layers/TownLabels';

export interface CorridorMapProps {
  onMapClick?: (lngLat: [number, number]) => void;
  /** Accessible description of what the map shows (e.g. "24 trucks"). */
  label: string;
  className?: string;
  /** Layer components (TruckMarkers, TrackLine, …), view helpers (FitBounds, CentreOn) and overlays (cards, legends). */
  children?: ReactNode;
  /** Called once the map has loaded (the live-map benchmark times its renders). */
  onLoad?: (map: MapLibreMap) => void;
}

// MapLibre's worker is its own file; served as a hashed asset beside the console
setWorkerUrl(workerUrl);

const EAST_AFRICA: [[number, number], [number, number]] = [
  [28.5, -11],
  [42, 4.5],
];

/**
 * The one component that owns MapLibre. It draws the base (offline: sea, land, borders, trunk roads
 * and towns from packages/geodata; or the server's `map` setting, a style or tile URL for a
 * deployment with internet), the corridors and their places in either case, and hands the map to
 * the layer components inside it, each of which owns one GeoJSON source and its layers (ui/map/layers).
 */
export function CorridorMap({ onMapClick, label, className, children, onLoad }: CorridorMapProps) {
  const container = useRef<HTMLDivElement>(null);
  const [map, setMap] = useState<MapLibreMap | null>(null);
  const [failed, setFailed] = useState(false);
  const server = useServer();
  const handlers = useRef({ onMapClick, onLoad });
  handlers.current = { onMapClick, onLoad };
  const setting = server.data?.map ?? null;
  const serverLoaded = !server.isPending;
  const online = mapSource(setting);
  const offline = !online.style && !online.tiles;

  useEffect(() => {
    if (!container.current || !serverLoaded) return;
    const source = mapSource(setting);
    let m: MapLibreMap;
    try {
      m = new MapLibre({
        container: container.current,
        style: source.style ?? baseStyle(source.tiles ?? null),
        bounds: EAST_AFRICA,
        attributionControl: source.style || source.tiles ? { compact: true } : false,
        dragRotate: false,
        pitchWithRotate: false,
      });
    } catch {
      setFailed(true); // no WebGL in this browser
      return;
    }
    // bottom right: the alerts pop up over the top right of the screen (live/alerts), the truck card
    // sits top left and the legend bottom left
    m.addControl(new NavigationControl({ showCompass: false }), 'bottom-right');
    m.touchZoomRotate.disableRotation();
    installLabelImages(m);
    const box = () => container.current?.parentElement;
    m.on('load', () => {
      setMap(m);
      handlers.current.onLoad?.(m);
    });
    m.on('click', (e: MapMouseEvent) => handlers.current.onMapClick?.([e.lngLat.lng, e.lngLat.lat]));
    // drawn and settled (screenshots wait for it)
    m.on('idle', () => box()?.setAttribute('data-idle', 'true'));
    m.on('dataloading', () => box()?.setAttribute('data-idle', 'false'));
    // where the map looks, for people debugging and for the browser tests
    m.on('moveend', () => {
      const c = m.getCenter();
      box()?.setAttribute('data-view', `${c.lng.toFixed(4)},${c.lat.toFixed(4)},${m.getZoom().toFixed(2)}`);
    });
    return () => {
      setMap(null);
      markRemoved(m);
      m.remove();
    };
  }, [serverLoaded, setting]);

  return (
    <div className={`map ${className ?? ''}`} role="region" aria-label={label} data-ready={map ? 'true' : 'false'}>
      <div ref={container} className="map-canvas" />
      {failed && <p className="map-fallback">{label}</p>}
      <MapContext.Provider value={map}>
        {offline && (
          <>
            <CountryOutlines />
            <BaseRoads />
            <TownLabels />
          </>
        )}
        <CorridorLines />
        <PlaceLabels />
        {children}
      </MapContext.Provider>
    </div>
  );
}
