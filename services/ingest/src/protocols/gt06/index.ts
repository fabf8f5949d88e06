import type { Protocol } from '../protocol';
import { encodeGt06Command } from './commands';
import { decodeGt06 } from './decode';
import { splitGt06Frames } from './frame';

export const GT06_PORT = 5023;

/** GT06 / Concox over TCP. */
export const gt06Protocol: Protocol = {
  name: 'gt06',
  defaultPort: GT06_PORT,
  transport: ['tcp'],
  splitFrames: splitGt06Frames,
  decode: (frame, session) => decodeGt06(frame, session),
  encodeCommand: encodeGt06Command,
};

export { decodeGt06, type Gt06Session } from './decode';
export { splitGt06Frames, parseGt06Envelope } from './frame';
export { encodeGt06Ack, encodeGt06Packet } from './ack';
export { encodeGt06Command } from './commands';
