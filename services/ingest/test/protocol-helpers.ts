import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DecodeError, type DecodedPosition, type DecodeResult, type Protocol } from '../src/protocols/protocol';

/** Turns a hex capture (spaces allowed) into bytes. */
export function hex(text: string): Buffer {
  return Buffer.from(text.replace(/\s+/g, ''), 'hex');
}

const HOURS_25_MS = 25 * 3600 * 1000;
const YEAR_2000_MS = Date.UTC(2000, 0, 1);

/** Asserts the invariants every decoded position must hold before it may enter positions.v1. */
export function expectSanePosition(p: DecodedPosition): void {
  expect(p.fixTime).toBeInstanceOf(Date);
  const t = p.fixTime.getTime();
  expect(Number.isFinite(t)).toBe(true);
  expect(t).toBeGreaterThan(YEAR_2000_MS);
  expect(t).toBeLessThan(Date.now() + HOURS_25_MS);
  expect(typeof p.valid).toBe('boolean');
  expect(Number.isFinite(p.latitude)).toBe(true);
  expect(Number.isFinite(p.longitude)).toBe(true);
  expect(p.latitude).toBeGreaterThanOrEqual(-90);
  expect(p.latitude).toBeLessThanOrEqual(90);
  expect(p.longitude).toBeGreaterThanOrEqual(-180);
  expect(p.longitude).toBeLessThanOrEqual(180);
  expect(p.speed).toBeGreaterThanOrEqual(0);
  expect(p.speed).toBeLessThanOrEqual(869);
  expect(p.course).toBeGreaterThanOrEqual(0);
  expect(p.course).toBeLessThanOrEqual(360);
  if (p.satellites != null) {
    expect(Number.isInteger(p.satellites)).toBe(true);
    expect(p.satellites).toBeGreaterThanOrEqual(0);
  }
  if (p.hdop != null) expect(p.hdop).toBeGreaterThanOrEqual(0);
  if (p.odometer != null) expect(p.odometer).toBeGreaterThanOrEqual(0);
  for (const key of ['altitude', 'power', 'battery'] as const) {
    const v = p[key];
    if (v != null) expect(Number.isFinite(v)).toBe(true);
  }
  if (p.ignition != null) expect(typeof p.ignition).toBe('boolean');
  if (p.alarm != null) expect(typeof p.alarm).toBe('string');
  for (const [key, value] of Object.entries(p.attributes)) {
    const ok =
      value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
    expect(ok, `attribute ${key} has untyped value ${String(value)}`).toBe(true);
  }
}

type Splitter = (buf: Buffer, maxFrame: number) => { frames: Buffer[]; rest: Buffer };

/** Feeds `chunks` to a splitter one after another, as a socket would, and returns every frame. */
function splitStream(split: Splitter, chunks: Buffer[], maxFrame: number): { frames: string[]; rest: Buffer } {
  const frames: string[] = [];
  let pending: Buffer = Buffer.alloc(0);
  for (const chunk of chunks) {
    const out = split(Buffer.concat([pending, chunk]), maxFrame);
    for (const f of out.frames) frames.push(f.toString('hex'));
    pending = out.rest;
  }
  return { frames, rest: pending };
}

/**
 * Splits `capture + capture` at every byte offset into two chunks and checks that each split yields
 * the same frames as feeding the whole stream at once (which must equal `expected` twice).
 */
export function expectSplitInvariant(split: Splitter, capture: Buffer, expected: string[], maxFrame: number): void {
  const stream = Buffer.concat([capture, capture]);
  const whole = splitStream(split, [stream], maxFrame);
  expect(whole.frames).toEqual([...expected, ...expected]);
  expect(whole.rest.length).toBe(0);
  for (let cut = 0; cut <= stream.length; cut++) {
    const parts = splitStream(split, [stream.subarray(0, cut), stream.subarray(cut)], maxFrame);
    expect(parts.frames, `cut at ${cut}`).toEqual(whole.frames);
    expect(parts.rest.length).toBe(0);
  }
  const bytewise = splitStream(
    split,
    [...stream].map((b) => Buffer.from([b])),
    maxFrame,
  );
  expect(bytewise.frames).toEqual(whole.frames);
}

/** Runs `fn` and fails unless it returns or throws an error with the given class. */
export function callAllowing(errorClass: new (...args: never[]) => Error, fn: () => unknown): void {
  try {
    fn();
  } catch (err) {
    if (!(err instanceof errorClass)) throw new Error(`expected only ${errorClass.name}, got ${String(err)}`);
  }
}

/** What a test expects of one fix: time, place, and the fields it names (speed in km/h as devices send it). */
interface ExpectedFix {
  time: string;
  lat: number;
  lon: number;
  kmh?: number;
  /** speed in knots, for protocols that send knots */
  knots?: number;
  course?: number;
  valid?: boolean;
  /** null: the decoder must leave it out */
  sat?: number | null;
  ign?: boolean | null;
  power?: number | null;
  battery?: number | null;
  odometer?: number | null;
  altitude?: number | null;
  hdop?: number | null;
  alarm?: string | null;
  attrs?: Record<string, unknown>;
}

/** What a test expects of one decoded frame. Keys left out are not checked. */
export interface Expected {
  kind: DecodeResult['kind'];
  type?: string;
  /** Acknowledgement bytes as hex; null = none. */
  ack?: string | null;
  crc?: boolean;
  pos?: ExpectedFix;
  positions?: ExpectedFix[];
  /** Attributes of a state record or command result (position-less frames). */
  attrs?: Record<string, unknown>;
  events?: string[];
  /** Device time of a state record, ISO. */
  dt?: string;
  /** Command reply text (attributes.result). */
  result?: string;
  /** Part of the ignoredReason. */
  why?: string;
}

function expectValues(actual: Record<string, unknown>, expected: Record<string, unknown>, what: string): void {
  for (const [key, want] of Object.entries(expected)) {
    const got = actual[key];
    if (typeof want === 'number' && !Number.isInteger(want)) expect(got, `${what}.${key}`).toBeCloseTo(want, 6);
    else expect(got, `${what}.${key}`).toEqual(want);
  }
}

function expectFix(p: DecodedPosition, e: ExpectedFix, what: string): void {
  expectSanePosition(p);
  expect(p.fixTime.toISOString(), `${what} time`).toBe(e.time);
  expect(p.latitude, `${what} latitude`).toBeCloseTo(e.lat, 5);
  expect(p.longitude, `${what} longitude`).toBeCloseTo(e.lon, 5);
  if (e.kmh !== undefined) expect(p.speed, `${what} speed`).toBeCloseTo(e.kmh / 1.852, 4);
  if (e.knots !== undefined) expect(p.speed, `${what} speed`).toBeCloseTo(e.knots, 4);
  // Optional fields a decoder left out count as null.
  const fields: Record<string, unknown> = {
    course: p.course,
    valid: p.valid,
    sat: p.satellites ?? null,
    ign: p.ignition ?? null,
    power: p.power ?? null,
    battery: p.battery ?? null,
    odometer: p.odometer ?? null,
    altitude: p.altitude ?? null,
    hdop: p.hdop ?? null,
    alarm: p.alarm ?? null,
  };
  const { time: _t, lat: _la, lon: _lo, kmh: _k, knots: _kn, attrs, ...named } = e;
  expectValues(fields, named, what);
  if (attrs) expectValues(p.attributes, attrs, `${what} attributes`);
}

/** Checks a decode result against `e` (every position also through expectSanePosition). */
export function expectDecoded(r: DecodeResult, e: Expected): void {
  expect(r.kind, 'kind').toBe(e.kind);
  if (e.type !== undefined) expect(r.type, 'type').toBe(e.type);
  if (e.ack !== undefined) expect(r.ack?.toString('hex') ?? null, 'ack').toBe(e.ack);
  if (e.crc !== undefined) expect(r.crcValid, 'crcValid').toBe(e.crc);
  const fixes = e.positions ?? (e.pos ? [e.pos] : []);
  expect(r.positions, 'positions').toHaveLength(fixes.length);
  fixes.forEach((f, i) => expectFix(r.positions[i]!, f, `position ${i}`));
  for (const p of r.positions) expectSanePosition(p);
  if (e.attrs) expectValues(r.attributes ?? {}, e.attrs, 'attributes');
  if (e.events !== undefined)
    expect(
      (r.events ?? []).map((x) => x.alarm),
      'events',
    ).toEqual(e.events);
  if (e.dt !== undefined) expect(r.deviceTime?.toISOString(), 'deviceTime').toBe(e.dt);
  if (e.result !== undefined) expect(r.attributes?.result, 'result').toBe(e.result);
  if (e.why !== undefined) expect(r.ignoredReason ?? '', 'ignoredReason').toContain(e.why);
}

/** A table-driven decoder case: title (naming its source), frame (hex or text), what to expect, and a per-case extra (e.g. the session's IMEI). */
export type DecodeCase<X = string> = [name: string, frame: string, expected: Expected, extra?: X];

/** One `it` per case: decodes the frame with `decode` and checks it with expectDecoded. */
export function itDecodes<X>(cases: DecodeCase<X>[], decode: (frame: string, extra: X | undefined) => DecodeResult): void {
  for (const [name, frame, expected, extra] of cases) it(name, () => expectDecoded(decode(frame, extra), expected));
}

/** The fuzz suite's splitter property: random bytes and frame limits throw nothing but DecodeError. */
export function fuzzSplitter(split: Splitter, numRuns = 2000): void {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 600 }), fc.integer({ min: 1, max: 2048 }), (bytes, maxFrame) => {
      callAllowing(DecodeError, () => split(Buffer.from(bytes), maxFrame));
    }),
    { numRuns },
  );
}

/**
 * The fuzz suite's mutation property: real captures with up to six bytes changed and up to
 * `maxCut - 1` bytes cut off the end, decoded whole and through the splitter, throw nothing but
 * DecodeError, and every position they still yield has a real fix time.
 */
export function fuzzMutations(
  decode: (frame: Buffer) => { positions: DecodedPosition[] },
  split: Splitter,
  captures: Buffer[],
  maxCut = 12,
  numRuns = 3000,
): void {
  const decodeChecked = (frame: Buffer): void => {
    for (const p of decode(frame).positions) expect(p.fixTime.getTime()).not.toBeNaN();
  };
  fc.assert(
    fc.property(
      fc.constantFrom(...captures),
      fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 6 }),
      fc.nat(),
      (capture, edits, cut) => {
        const frame = Buffer.from(capture);
        for (const [at, value] of edits) frame[at % frame.length] = value;
        const truncated = frame.subarray(0, Math.max(0, frame.length - (cut % maxCut)));
        callAllowing(DecodeError, () => decodeChecked(truncated));
        callAllowing(DecodeError, () => {
          for (const f of split(truncated, 4096).frames) decodeChecked(f);
        });
      },
    ),
    { numRuns },
  );
}

/**
 * The fuzz suite's property for text protocols: real sentences with up to six characters replaced
 * by ones from `alphabet` (the protocol's separators and digits) decode to sane positions or throw
 * nothing but DecodeError.
 */
export function fuzzTextMutations(
  decode: (text: string) => { positions: DecodedPosition[] },
  texts: string[],
  alphabet: string,
  numRuns = 3000,
): void {
  fc.assert(
    fc.property(
      fc.constantFrom(...texts),
      fc.array(fc.tuple(fc.nat(), fc.constantFrom(...alphabet.split(''))), { maxLength: 6 }),
      (text, edits) => {
        const chars = text.split('');
        for (const [at, ch] of edits) chars[at % chars.length] = ch;
        callAllowing(DecodeError, () => decode(chars.join('')).positions.forEach(expectSanePosition));
      },
    ),
    { numRuns },
  );
}

/**
 * A text protocol's capture suite: one describe per group of cases (each frame decoded with a fresh
 * session and checked with expectDecoded), then the fuzz properties over every capture: text edits
 * from `alphabet`, and byte edits with truncation decoded whole and through the splitter. Texts
 * become bytes in `encoding` (latin1, or utf8 for protocols whose devices send any script).
 */
export function describeTextCaptures(
  protocol: Protocol,
  groups: Record<string, DecodeCase[]>,
  alphabet: string,
  encoding: 'latin1' | 'utf8' = 'latin1',
): void {
  const decode = (text: string): DecodeResult => protocol.decode(Buffer.from(text, encoding), {});
  for (const [title, cases] of Object.entries(groups)) describe(`${protocol.name} captures: ${title}`, () => itDecodes(cases, decode));
  const texts = Object.values(groups).flatMap((cases) => cases.map(([, text]) => text));
  describe(`${protocol.name} fuzz: every capture mutated`, () => {
    it('text edits give sane positions or a DecodeError', () => fuzzTextMutations(decode, texts, alphabet));
    it('byte edits and truncation, decoded whole and through the splitter, throw nothing but DecodeError', () => {
      fuzzMutations(
        (frame) => protocol.decode(frame, {}),
        protocol.splitFrames,
        texts.map((t) => Buffer.from(t, encoding)),
      );
    });
  });
}
