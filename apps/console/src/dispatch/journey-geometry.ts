import type { Feature, FeatureCollection } from 'geojson';
import type { JourneyDetail } from '@corridor/contracts/journeys';
import type { LngLatBoundsLike } from 'maplibre-gl';
import { boundsOf } from '../ui/map/bounds';
import { bandWidth } from '../ui/map/scale';

/**
 * The planned corridor: its centre line with the allowed width drawn to scale (a line whose pixel
 * width follows the zoom, from the route's width in metres at its latitude), and the approved stop areas.
 */
export function plannedFeatures(d: JourneyDetail): FeatureCollection {
  const line = d.route.line ?? d.route.legs?.flat() ?? [];
  const lat = line.length ? line.reduce((s, p) => s + p[1], 0) / line.length : 0;
  const features: Feature[] = [
    {
      type: 'Feature',
      properties: { kind: 'corridor', ...bandWidth(d.route.widthM, lat) },
      geometry: { type: 'LineString', coordinates: line },
    },
    ...d.route.stopAreas.map((a): Feature => ({
      type: 'Feature',
      properties: { kind: a.kind, name: a.name ?? a.kind },
      geometry: { type: 'Point', coordinates: a.center },
    })),
  ];
  return { type: 'FeatureCollection', features };
}

/** The actual track, oldest first. */
export function trackFeatures(d: JourneyDetail): FeatureCollection {
  const coords = d.track.map((p) => [p.longitude, p.latitude]);
  return {
    type: 'FeatureCollection',
    features: coords.length > 1 ? [{ type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates: coords } }] : [],
  };
}

/** Each flag where it was raised; open ones stand out. */
export function flagFeatures(d: JourneyDetail, selected?: number | null): FeatureCollection {
  return {
    type: 'FeatureCollection',
    features: d.flags.map((fl) => ({
      type: 'Feature',
      id: fl.id,
      properties: { flagId: fl.id, type: fl.type, open: fl.clearedAt === null && fl.review !== 'resolved', selected: fl.id === selected },
      geometry: { type: 'Point', coordinates: [fl.longitude, fl.latitude] },
    })),
  };
}

/**
 * Bounds around the track, or the route when there is no track yet; a journey that left its
 * corridor also takes in the route, so the planned corridor and where the truck went are both seen.
 */
export function journeyBounds(d: JourneyDetail): LngLatBoundsLike | null {
  const route = (d.route.line ?? d.route.legs?.flat() ?? []) as [number, number][];
  const track = d.track.map((p): [number, number] => [p.longitude, p.latitude]);
  const offCorridor = d.flags.some((f) => f.type === 'offCorridor');
  const pts = track.length > 1 ? (offCorridor ? [...track, ...route] : track) : route;
  return boundsOf(pts);
}
