import type { Map as MapLibreMap } from 'maplibre-gl';

/**
 * Text drawn on a canvas and added as a map image when a layer first asks for it (the missing
 * style image resolver): labels without a glyph server, so the map stays offline. Image ids are
 * `label:<text>` (a corridor place's name on its box), `town:<rank>:<name>` (a town's name, haloed,
 * bigger for a higher rank) and `count:<n>` (a cluster's truck count).
 */
export function installLabelImages(map: MapLibreMap): void {
  map.setMissingStyleImageResolver((id) => ensureLabelImage(map, id));
}

/**
 * Draws a label image now (a layer's names added before its data, so that the first layout of the
 * opening view finds them: an image supplied only when a layout asks for it may miss that layout).
 */
export function ensureLabelImage(map: MapLibreMap, id: string): void {
  if (map.hasImage(id)) return;
  const ratio = Math.min(window.devicePixelRatio || 1, 2);
  if (id.startsWith('count:')) addImage(map, id, drawCount(id.slice(6), ratio), ratio);
  else if (id.startsWith('label:')) addImage(map, id, drawLabel(id.slice(6), ratio), ratio);
  else if (id.startsWith('town:')) {
    const [, rank, ...name] = id.split(':');
    addImage(map, id, drawTown(name.join(':'), Number(rank), ratio), ratio);
  }
}

function addImage(map: MapLibreMap, id: string, data: ImageData | undefined, pixelRatio: number): void {
  if (data && !map.hasImage(id)) map.addImage(id, data, { pixelRatio });
}

function canvas(w: number, h: number): CanvasRenderingContext2D | null {
  const c = document.createElement('canvas');
  c.width = Math.ceil(w);
  c.height = Math.ceil(h);
  return c.getContext('2d');
}

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

function drawCount(text: string, ratio: number): ImageData | undefined {
  const size = 14 * ratio;
  const ctx = canvas(size * 3, size * 1.4);
  if (!ctx) return undefined;
  ctx.font = `600 ${12 * ratio}px ${FONT}`;
  const w = Math.ceil(ctx.measureText(text).width) + 2;
  const h = Math.ceil(size * 1.2);
  const out = canvas(w, h)!;
  out.font = ctx.font;
  out.fillStyle = '#ffffff';
  out.textBaseline = 'middle';
  out.fillText(text, 1, h / 2);
  return out.getImageData(0, 0, w, h);
}

function drawLabel(text: string, ratio: number): ImageData | undefined {
  const probe = canvas(1, 1);
  if (!probe) return undefined;
  probe.font = `500 ${11 * ratio}px ${FONT}`;
  const pad = 3 * ratio;
  const w = Math.ceil(probe.measureText(text).width + pad * 2);
  const h = Math.ceil(16 * ratio);
  const ctx = canvas(w, h)!;
  ctx.font = probe.font;
  ctx.fillStyle = 'rgba(255,255,255,0.85)';
  ctx.fillRect(0, 0, w, h);
  ctx.fillStyle = '#1e293b';
  ctx.textBaseline = 'middle';
  ctx.fillText(text, pad, h / 2);
  return ctx.getImageData(0, 0, w, h);
}

/** A town's name: dark text with a white halo, no box (it sits on the land, under the corridor places' boxed names). */
function drawTown(text: string, rank: number, ratio: number): ImageData | undefined {
  const probe = canvas(1, 1);
  if (!probe) return undefined;
  const size = ([0, 14, 12.5, 11.5, 10.5][rank] ?? 10.5) * ratio;
  probe.font = `${rank <= 2 ? 600 : 500} ${size}px ${FONT}`;
  const halo = 2.5 * ratio;
  const w = Math.ceil(probe.measureText(text).width + halo * 2);
  const h = Math.ceil(size * 1.35 + halo);
  const ctx = canvas(w, h)!;
  ctx.font = probe.font;
  ctx.textBaseline = 'middle';
  ctx.lineJoin = 'round';
  ctx.lineWidth = halo * 2;
  ctx.strokeStyle = 'rgba(255,255,255,0.9)';
  ctx.strokeText(text, halo, h / 2);
  ctx.fillStyle = rank <= 2 ? '#0f172a' : '#334155';
  ctx.fillText(text, halo, h / 2);
  return ctx.getImageData(0, 0, w, h);
}
