import { useEffect } from 'react';
import { useMapInstance } from '../../ui/map/map-context';

/** While playing, the map moves when the cursor nears its edge (not every frame: the track stays still under it). */
export function KeepInView({ at, active }: { at: [number, number]; active: boolean }) {
  const map = useMapInstance();
  const [lon, lat] = at;
  useEffect(() => {
    if (!map || !active || map.isMoving()) return;
    const { x, y } = map.project([lon, lat]);
    const { clientWidth: w, clientHeight: h } = map.getContainer();
    const margin = 0.15;
    if (x < w * margin || x > w * (1 - margin) || y < h * margin || y > h * (1 - margin)) map.easeTo({ center: [lon, lat], duration: 500 });
  }, [map, active, lon, lat]);
  return null;
}
