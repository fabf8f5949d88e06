import type { Protocol } from '../protocol';
import { encodeJt808Command } from './commands';
import { decodeJt808 } from './decode';
import { splitJt808Frames } from './frame';

/** Traccar's default port of its JT/T 808 decoder ("huabao"). */
export const JT808_PORT = 5015;

/** JT/T 808 (2013 and 2019) over TCP. */
export const jt808Protocol: Protocol = {
  name: 'jt808',
  defaultPort: JT808_PORT,
  transport: ['tcp'],
  splitFrames: splitJt808Frames,
  decode: (frame, session) => decodeJt808(frame, session),
  encodeCommand: encodeJt808Command,
};

export { decodeJt808, JT808_MSG, jt808Type } from './decode';
export { splitJt808Frames, parseJt808, encodeJt808, escapeJt808, unescapeJt808, xorCheck, type Jt808Address } from './frame';
export { encodeJt808GeneralResponse, encodeJt808RegisterResponse, JT808_REGISTER_RESULT, JT808_RESULT } from './ack';
export { encodeJt808Command, type Jt808Session } from './commands';
export { decodeJt808Location } from './location';
