import { useEffect, useRef } from 'react';
import { Marker } from 'maplibre-gl';
import { useMapInstance } from '../map-context';

/** Pixels an arrow key moves a corner (ten with Shift). */
const STEP_PX = 4;

/**
 * The corners of a shape being drawn or edited as handles on the map: each one dragged with the
 * mouse or a finger (MapLibre's draggable markers), or focused and moved with the arrow keys, and
 * named for screen readers by `label(index)`. `onMove` gets the corner's index and where it now is.
 */
export function DraftHandles({
  points,
  label,
  onMove,
}: {
  points: readonly [number, number][];
  label(index: number): string;
  onMove(index: number, at: [number, number]): void;
}) {
  const map = useMapInstance();
  const markers = useRef<Marker[]>([]);
  const handlers = useRef({ onMove, label });
  handlers.current = { onMove, label };

  // one marker per corner, made or dropped as corners are added or removed
  useEffect(() => {
    if (!map) return;
    const list = markers.current;
    while (list.length > points.length) list.pop()!.remove();
    while (list.length < points.length) {
      const index = list.length;
      const el = document.createElement('div');
      el.className = 'draft-handle';
      el.tabIndex = 0;
      el.setAttribute('role', 'button');
      el.dataset.index = String(index);
      const marker = new Marker({ element: el, draggable: true }).setLngLat(points[index]!).addTo(map);
      const moved = () => {
        const at = marker.getLngLat();
        handlers.current.onMove(index, [at.lng, at.lat]);
      };
      marker.on('drag', moved);
      marker.on('dragend', moved);
      el.addEventListener('keydown', (e) => {
        const step = e.shiftKey ? STEP_PX * 10 : STEP_PX;
        const d = (
          { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] } as Record<string, [number, number]>
        )[e.key];
        if (!d) return;
        e.preventDefault();
        e.stopPropagation(); // the map's own arrow keys would pan it
        const p = map.project(marker.getLngLat());
        marker.setLngLat(map.unproject([p.x + d[0], p.y + d[1]]));
        moved();
      });
      list.push(marker);
    }
  }, [map, points.length]); // eslint-disable-line react-hooks/exhaustive-deps -- positions are set below

  // each corner where the shape has it, and named as it now is
  useEffect(() => {
    markers.current.forEach((m, i) => {
      const p = points[i];
      if (!p) return;
      const at = m.getLngLat();
      if (at.lng !== p[0] || at.lat !== p[1]) m.setLngLat(p);
      m.getElement().setAttribute('aria-label', handlers.current.label(i));
    });
  });

  useEffect(
    () => () => {
      for (const m of markers.current.splice(0)) m.remove();
    },
    [map],
  );
  return null;
}
