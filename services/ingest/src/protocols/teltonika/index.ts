import type { Protocol } from '../protocol';
import { decodeTeltonika } from './decode';
import { splitTeltonikaFrames } from './frame';

export const TELTONIKA_PORT = 5027;

/** Teltonika over TCP; UDP datagrams on the same port go to decodeTeltonikaUdp. */
export const teltonikaProtocol: Protocol = {
  name: 'teltonika',
  defaultPort: TELTONIKA_PORT,
  transport: ['tcp', 'udp'],
  splitFrames: splitTeltonikaFrames,
  decode: (frame, session) => decodeTeltonika(frame, session),
};

export { decodeTeltonika, decodeTeltonikaUdp, type TeltonikaSession } from './decode';
export { splitTeltonikaFrames } from './frame';
export { encodeImeiAck, encodeTcpAck, encodeUdpAck } from './ack';
export { TELTONIKA_IO, type IoElementSpec } from './io-elements';
