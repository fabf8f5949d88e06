import { POLYLINE_DISTANCE_DEFAULT_M, type FenceShape, type LonLat } from './fence';
import type { AreaIssue, AreaResult } from './area-issue';
import { validateShape, type RawShape } from './area-validation';

/**
 * Traccar's geofence `area` strings. Unlike OGC WKT they are LATITUDE FIRST:
 *   CIRCLE (lat lon, radiusMetres)
 *   POLYGON ((lat lon, lat lon, ...), (hole ...))   ring closure optional
 *   LINESTRING (lat lon, ...)                        width = attribute polylineDistance (default 25 m)
 * Source of the format: Traccar's GeofenceCircle / GeofencePolygon / GeofencePolyline (facts only),
 * summarised in /work/shared/reference/traccar-api.md §6. Keywords are matched case-insensitively.
 */

/** A parenthesised list; each item is a nested list or a run of numbers separated by whitespace. */
type Node = { list: Node[]; at: number } | { numbers: number[]; at: number };

const TOKEN = /\s*(?:([A-Za-z]+)|([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)|([(),]))/y;

type Token = { word: string; at: number } | { num: number; at: number } | { punct: string; at: number };

function tokenize(text: string): Token[] | { error: string } {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(text);
    if (!m) {
      if (/^\s*$/.test(text.slice(at))) break;
      return { error: `unexpected character at offset ${at + (text.slice(at).length - text.slice(at).trimStart().length)}` };
    }
    const start = at + (m[0].length - m[0].trimStart().length);
    if (m[1] !== undefined) tokens.push({ word: m[1].toUpperCase(), at: start });
    else if (m[2] !== undefined) tokens.push({ num: Number(m[2]), at: start });
    else tokens.push({ punct: m[3] as string, at: start });
  }
  return tokens;
}

function parseList(tokens: Token[], pos: number): { node: Node; next: number } | { error: string } {
  const open = tokens[pos];
  if (!open || !('punct' in open) || open.punct !== '(') {
    return { error: `expected "(" at ${open ? `offset ${open.at}` : 'end of text'}` };
  }
  const items: Node[] = [];
  let i = pos + 1;
  for (;;) {
    const t = tokens[i];
    if (!t) return { error: 'missing ")" at end of text' };
    if ('punct' in t && t.punct === '(') {
      const inner = parseList(tokens, i);
      if ('error' in inner) return inner;
      items.push(inner.node);
      i = inner.next;
    } else if ('num' in t) {
      const numbers: number[] = [];
      while (tokens[i] && 'num' in (tokens[i] as Token)) numbers.push((tokens[i++] as { num: number }).num);
      items.push({ numbers, at: t.at });
    } else {
      return { error: `expected a number or "(" at offset ${t.at}` };
    }
    const sep = tokens[i];
    if (!sep) return { error: 'missing ")" at end of text' };
    if ('punct' in sep && sep.punct === ',') i++;
    else if ('punct' in sep && sep.punct === ')') return { node: { list: items, at: open.at }, next: i + 1 };
    else return { error: `expected "," or ")" at offset ${sep.at}` };
  }
}

function latLonPairs(node: Node): LonLat[] | string {
  if (!('list' in node)) return `expected "(lat lon, ...)" at offset ${node.at}`;
  const out: LonLat[] = [];
  for (const item of node.list) {
    if (!('numbers' in item) || item.numbers.length !== 2) {
      return `expected a "lat lon" pair at offset ${item.at}`;
    }
    const [lat, lon] = item.numbers as [number, number];
    out.push([lon, lat]);
  }
  return out;
}

function syntax(message: string): AreaResult {
  return { ok: false, errors: [{ path: ['area'], code: 'syntax', message }], notices: [] };
}

export interface AreaAttributes {
  /** corridor half-width in metres for LINESTRING areas; Traccar's default is 25 */
  polylineDistance?: unknown;
}

/** Parses a Traccar area string into the internal shape, or returns every problem found. */
export function parseAreaWkt(area: string, attributes: AreaAttributes = {}): AreaResult {
  const tokens = tokenize(area);
  if ('error' in tokens) return syntax(tokens.error);
  const head = tokens[0];
  if (!head || !('word' in head)) return syntax('expected CIRCLE, POLYGON or LINESTRING');
  const parsed = parseList(tokens, 1);
  if ('error' in parsed) return syntax(parsed.error);
  const extra = tokens[parsed.next];
  if (extra) return syntax(`unexpected text after the closing ")" at offset ${extra.at}`);
  const { node } = parsed;
  if (!('list' in node)) return syntax('expected a parenthesised list');

  const paths = { coordinates: ['area'], radius: ['area', 'radius'], width: ['attributes', 'polylineDistance'], latitudeFirst: true };
  let raw: RawShape;
  switch (head.word) {
    case 'CIRCLE': {
      const [centre, radius] = node.list;
      if (
        node.list.length !== 2 ||
        !centre ||
        !radius ||
        !('numbers' in centre) ||
        !('numbers' in radius) ||
        centre.numbers.length !== 2 ||
        radius.numbers.length !== 1
      ) {
        return syntax('expected CIRCLE (lat lon, radius)');
      }
      const [lat, lon] = centre.numbers as [number, number];
      raw = { kind: 'circle', center: [lon, lat], radius: radius.numbers[0] as number };
      break;
    }
    case 'POLYGON': {
      const rings: LonLat[][] = [];
      for (const ring of node.list) {
        const pairs = latLonPairs(ring);
        if (typeof pairs === 'string') return syntax(`${pairs}; expected POLYGON ((lat lon, ...), ...)`);
        rings.push(pairs);
      }
      raw = { kind: 'polygon', rings };
      break;
    }
    case 'LINESTRING': {
      const points = latLonPairs(node);
      if (typeof points === 'string') return syntax(`${points}; expected LINESTRING (lat lon, ...)`);
      const width = attributes.polylineDistance ?? POLYLINE_DISTANCE_DEFAULT_M;
      if (typeof width !== 'number') {
        const error: AreaIssue<'invalid_number'> = {
          path: paths.width,
          code: 'invalid_number',
          message: 'polylineDistance must be a number of metres',
        };
        return { ok: false, errors: [error], notices: [] };
      }
      raw = { kind: 'line', points, width };
      break;
    }
    default:
      return {
        ok: false,
        notices: [],
        errors: [
          { path: ['area'], code: 'unknown_shape', message: `unknown area type ${head.word}; expected CIRCLE, POLYGON or LINESTRING` },
        ],
      };
  }
  return validateShape(raw, paths);
}

function latLon(p: LonLat): string {
  return `${p[1]} ${p[0]}`;
}

/**
 * Formats a shape as a Traccar area string (latitude first; rings written closed; radius with at
 * most one decimal as Traccar writes it). A line's width is not part of the string: store it as
 * the geofence attribute `polylineDistance`.
 */
export function formatAreaWkt(shape: FenceShape): string {
  switch (shape.kind) {
    case 'circle':
      return `CIRCLE (${latLon(shape.center)}, ${Math.round(shape.radius * 10) / 10})`;
    case 'polygon':
      return `POLYGON (${shape.rings.map((ring) => `(${ring.map(latLon).join(', ')})`).join(', ')})`;
    case 'line':
      return `LINESTRING (${shape.points.map(latLon).join(', ')})`;
  }
}
