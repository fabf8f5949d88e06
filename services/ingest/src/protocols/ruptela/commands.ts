import { DecodeError, type ProtocolSession } from '../protocol';
import { encodeRuptela } from './frame';
import { RUPTELA_MSG } from './decode';

/**
 * Server commands (Ruptela's protocol document; byte layouts as Traccar's RuptelaProtocolEncoder
 * writes them): the command byte is 100 + the device command.
 * - custom: SMS-via-GPRS (108) with attributes.data as the SMS command text;
 * - getVersion: 103; configuration: 102 with attributes.data + CR LF;
 * - outputControl: set IO (117), attributes.index (output) and attributes.data (value) as DWORDs;
 * - setOdometer: 106, attributes.data (metres) as a DWORD.
 */
function text(attrs: Record<string, unknown>, what: string): string {
  const data = attrs.data;
  if (typeof data !== 'string' || !/^[\x20-\x7e]+$/.test(data))
    throw new DecodeError('bad_command', `ruptela: ${what} needs attributes.data in printable ASCII`);
  return data;
}

function integer(value: unknown, what: string): number {
  const n = typeof value === 'string' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 0xffffffff)
    throw new DecodeError('bad_command', `ruptela: ${what} must be an integer 0..2^32-1`);
  return n;
}

export function encodeRuptelaCommand(cmd: { type: string; attributes?: Record<string, unknown> }, _session: ProtocolSession): Buffer {
  const attrs = cmd.attributes ?? {};
  switch (cmd.type) {
    case 'custom':
      return encodeRuptela(100 + RUPTELA_MSG.smsViaGprs, Buffer.from(text(attrs, 'custom'), 'latin1'));
    case 'getVersion':
      return encodeRuptela(100 + RUPTELA_MSG.version);
    case 'configuration':
      return encodeRuptela(100 + RUPTELA_MSG.configuration, Buffer.from(`${text(attrs, 'configuration')}\r\n`, 'latin1'));
    case 'outputControl': {
      const data = Buffer.alloc(8);
      data.writeUInt32BE(integer(attrs.index, 'attributes.index'), 0);
      data.writeUInt32BE(integer(attrs.data, 'attributes.data'), 4);
      return encodeRuptela(100 + RUPTELA_MSG.setIo, data);
    }
    case 'setOdometer': {
      const data = Buffer.alloc(4);
      data.writeUInt32BE(integer(attrs.data, 'attributes.data'), 0);
      return encodeRuptela(100 + RUPTELA_MSG.setOdometer, data);
    }
    default:
      throw new DecodeError('unsupported_command', `ruptela: command ${cmd.type} is not supported`);
  }
}
