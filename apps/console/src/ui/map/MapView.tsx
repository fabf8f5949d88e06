import { useEffect, useRef } from 'react';
import type { LngLatBoundsLike } from 'maplibre-gl';
import { useMapInstance } from './map-context';

/** Shows the bounds whole (padded, zoom 12 at most) whenever they change. */
export function FitBounds({ bounds, maxZoom = 12 }: { bounds: LngLatBoundsLike | null | undefined; maxZoom?: number }) {
  const map = useMapInstance();
  useEffect(() => {
    if (map && bounds) map.fitBounds(bounds, { padding: 48, maxZoom, duration: 0 });
  }, [map, bounds, maxZoom]);
  return null;
}

/**
 * Centres the map on a point: once for each new `target` (a truck chosen; zoomed in to `zoom` at
 * least), and on every move of the point while `follow` is on. A person dragging the map calls
 * `onUserMove` (following stops; zooming keeps the point in the middle).
 */
export function CentreOn({
  at,
  target,
  follow = false,
  zoom,
  onUserMove,
}: {
  at: [number, number] | null;
  target: string | null;
  follow?: boolean;
  zoom?: number;
  onUserMove?: () => void;
}) {
  const map = useMapInstance();
  const moved = useRef(onUserMove);
  moved.current = onUserMove;
  const point = useRef(at);
  point.current = at;
  useEffect(() => {
    if (!map) return;
    // only gestures: easeTo's own movement has no originalEvent
    const take = (e: { originalEvent?: unknown }) => e.originalEvent && moved.current?.();
    map.on('dragstart', take);
    return () => void map.off('dragstart', take);
  }, [map]);
  useEffect(() => {
    const p = point.current;
    if (!map || !p || target === null) return;
    map.easeTo({ center: p, zoom: zoom === undefined ? map.getZoom() : Math.max(map.getZoom(), zoom), duration: 600 });
  }, [map, target, zoom]);
  useEffect(() => {
    if (map && follow && at) map.easeTo({ center: at, duration: 600 });
  }, [map, follow, at?.[0], at?.[1]]); // eslint-disable-line react-hooks/exhaustive-deps -- the point's coordinates, not its array
  return null;
}
