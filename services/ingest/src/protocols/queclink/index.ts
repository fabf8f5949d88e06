import { DecodeError, type Protocol } from '../protocol';
import { decodeQueclink } from './decode';
import { splitQueclinkFrames } from './frame';

/** Traccar's default port of its Queclink decoder ("gl200"). */
export const QUECLINK_PORT = 5004;

/**
 * AT commands (Queclink @Track; the command strings Traccar's Gl200ProtocolEncoder sends), with the
 * device password from attributes.devicePassword (empty by default, as Traccar):
 * positionSingle `GTRTO` 1, rebootDevice `GTRTO` 3, identification `GTRTO` 8, engineStop /
 * engineResume `GTOUT` output 1 on / off; custom: attributes.data as it is.
 */
export function encodeQueclinkCommand(cmd: { type: string; attributes?: Record<string, unknown> }): Buffer {
  const attrs = cmd.attributes ?? {};
  const password = typeof attrs.devicePassword === 'string' ? attrs.devicePassword : '';
  if (!/^[0-9A-Za-z]*$/.test(password)) throw new DecodeError('bad_command', 'queclink: devicePassword must be letters and digits');
  const text = (() => {
    switch (cmd.type) {
      case 'positionSingle':
        return `AT+GTRTO=${password},1,,,,,,FFFF$`;
      case 'rebootDevice':
        return `AT+GTRTO=${password},3,,,,,,FFFF$`;
      case 'identification':
        return `AT+GTRTO=${password},8,,,,,,FFFF$`;
      case 'engineStop':
        return `AT+GTOUT=${password},1,,,0,0,0,0,0,0,0,,,,,,,FFFF$`;
      case 'engineResume':
        return `AT+GTOUT=${password},0,,,0,0,0,0,0,0,0,,,,,,,FFFF$`;
      case 'custom':
        if (typeof attrs.data !== 'string' || !/^AT\+GT[\x20-\x7e]+\$$/.test(attrs.data))
          throw new DecodeError('bad_command', 'queclink: custom needs attributes.data as "AT+GT...$"');
        return attrs.data;
      default:
        throw new DecodeError('unsupported_command', `queclink: command ${cmd.type} is not supported`);
    }
  })();
  return Buffer.from(text, 'latin1');
}

/** Queclink @Track (every model: GV, GL, GMT, GB, CV, GT series) over TCP. */
export const queclinkProtocol: Protocol = {
  name: 'queclink',
  defaultPort: QUECLINK_PORT,
  transport: ['tcp'],
  splitFrames: splitQueclinkFrames,
  decode: (frame, session) => decodeQueclink(frame, session),
  encodeCommand: encodeQueclinkCommand,
};

export { decodeQueclink } from './decode';
export { splitQueclinkFrames } from './frame';
export { modelOf } from './models';
export { REPORT_TYPES } from './reports';
