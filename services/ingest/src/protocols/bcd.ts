/**
 * Packed BCD as the binary tracker protocols use it (JT/T 808 phone numbers and times, Jointech
 * JT701 dates and coordinates): two decimal digits per byte, high nibble first.
 */

/** The nibbles of `buf[start, end)` as a digit string (hex digits appear as they are: check with isDigits). */
export function bcdString(buf: Buffer, start: number, end: number): string {
  if (start < 0 || end > buf.length || start > end) throw new RangeError(`BCD field [${start}, ${end}) outside ${buf.length} bytes`);
  return buf.toString('hex', start, end);
}

export function isDigits(text: string): boolean {
  return /^\d*$/.test(text);
}

/** Two BCD digits of one byte as a number, or NaN when a nibble is not a decimal digit. */
function bcdByte(value: number): number {
  const high = value >> 4;
  const low = value & 0x0f;
  return high > 9 || low > 9 ? Number.NaN : high * 10 + low;
}

/**
 * Six BCD bytes of a date and time, in `order` (`ymd` YY MM DD hh mm ss, `dmy` DD MM YY hh mm ss),
 * in a zone `offsetMinutes` east of UTC. Null when a field is not a valid calendar value.
 */
export function bcdDateTime(buf: Buffer, at: number, order: 'ymd' | 'dmy', offsetMinutes = 0): Date | null {
  if (at < 0 || at + 6 > buf.length) throw new RangeError(`BCD time at ${at} outside ${buf.length} bytes`);
  const v = [0, 1, 2, 3, 4, 5].map((i) => bcdByte(buf[at + i] ?? 0));
  const [a, b, c, h, mi, s] = v as [number, number, number, number, number, number];
  const [y, mo, d] = order === 'ymd' ? [a, b, c] : [c, b, a];
  if (v.some(Number.isNaN) || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return null;
  const ms = Date.UTC(2000 + y, mo - 1, d, h, mi, s) - offsetMinutes * 60_000;
  const date = new Date(ms);
  // Date.UTC rolls 31 February over into March: refuse it
  return new Date(Date.UTC(2000 + y, mo - 1, d)).getUTCDate() === d ? date : null;
}
