import type { Protocol } from '../protocol';
import { encodeRuptelaCommand } from './commands';
import { decodeRuptela } from './decode';
import { splitRuptelaFrames } from './frame';

/** Traccar's default port for Ruptela. */
export const RUPTELA_PORT = 5046;

/** Ruptela FM series over TCP. */
export const ruptelaProtocol: Protocol = {
  name: 'ruptela',
  defaultPort: RUPTELA_PORT,
  transport: ['tcp'],
  splitFrames: splitRuptelaFrames,
  decode: (frame, session) => decodeRuptela(frame, session),
  encodeCommand: encodeRuptelaCommand,
};

export { decodeRuptela, encodeRuptelaAck, RUPTELA_MSG } from './decode';
export { splitRuptelaFrames, encodeRuptela, ruptelaPayload } from './frame';
export { encodeRuptelaCommand } from './commands';
export { RUPTELA_IO } from './io';
