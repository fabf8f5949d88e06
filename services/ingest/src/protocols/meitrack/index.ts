import type { Protocol } from '../protocol';
import { decodeMeitrack, PROTOCOL } from './decode';
import { splitMeitrackFrames } from './frame';

export const MEITRACK_PORT = 5020;

/** Meitrack over TCP: text AAA reports and binary CCE/CCC buffered reports. */
export const meitrackProtocol: Protocol = {
  name: PROTOCOL,
  defaultPort: MEITRACK_PORT,
  transport: ['tcp'],
  splitFrames: splitMeitrackFrames,
  decode: decodeMeitrack,
};

export { decodeMeitrack, PROTOCOL } from './decode';
export { splitMeitrackFrames, meitrackChecksumValid, encodeMeitrackCommand } from './frame';
