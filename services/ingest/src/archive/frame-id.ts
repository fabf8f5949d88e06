import { randomBytes } from 'node:crypto';

let lastMs = 0;
let sequence = 0;
/** Random bytes drawn in blocks: one getrandom call per 512 ids instead of one per id. */
const POOL_IDS = 512;
let pool = randomBytes(16 * POOL_IDS);
let next = 0;

/**
 * Raw frame ids: UUID version 7 (RFC 9562), the 48-bit millisecond time first and a 12-bit counter
 * in `rand_a`, so ids made by one process sort in the order its frames arrived, even within one
 * millisecond (a replay of a device's day sorts by received_at, then id).
 */
export function rawFrameId(nowMs: number = Date.now()): string {
  if (nowMs > lastMs) {
    lastMs = nowMs;
    sequence = 0;
  } else if (++sequence > 0xfff) {
    lastMs++;
    sequence = 0;
  }
  if (next === POOL_IDS) {
    pool = randomBytes(16 * POOL_IDS);
    next = 0;
  }
  const b = pool.subarray(16 * next, 16 * ++next);
  b.writeUIntBE(lastMs, 0, 6);
  b[6] = 0x70 | (sequence >> 8);
  b[7] = sequence & 0xff;
  b[8] = 0x80 | (b[8]! & 0x3f);
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
