import type { StyleSpecification } from 'maplibre-gl';

/** Map colours, shared by the layers and the legend. */
export const MAP_COLOURS = {
  water: '#d6e6f2',
  land: '#f4f1ea',
  border: '#9a9486',
  corridor: '#1f6feb',
  planned: '#1f6feb',
  track: '#0f172a',
  flag: '#d92d20',
  moving: '#12a150',
  stopped: '#e0a100',
  offline: '#8a8f98',
  unknown: '#c4c8cf',
  cluster: '#334155',
  fence: '#7c3aed',
} as const;

/**
 * The offline base: sea, land and country outlines (Natural Earth through world-atlas, added once
 * its file has loaded). Where the server settings give a tile or style URL (a deployment with
 * internet), that base is used instead and the overlays go on top.
 */
export function baseStyle(tileUrl: string | null): StyleSpecification {
  const style: StyleSpecification = {
    version: 8,
    sources: {},
    layers: [{ id: 'background', type: 'background', paint: { 'background-color': MAP_COLOURS.water } }],
  };
  if (tileUrl) {
    style.sources.tiles = { type: 'raster', tiles: [tileUrl], tileSize: 256, attribution: '© map data providers' };
    style.layers.push({ id: 'tiles', type: 'raster', source: 'tiles' });
  }
  return style;
}

/** The server's `map` setting: a style URL (…json), a raster tile template ({z}/{x}/{y}), or anything else (offline). */
export function mapSource(setting: string | null | undefined): { style?: string; tiles?: string } {
  if (!setting || !/^https?:\/\//.test(setting)) return {};
  if (/\{z\}/.test(setting)) return { tiles: setting };
  return { style: setting };
}
