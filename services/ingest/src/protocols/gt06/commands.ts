import { DecodeError, type ProtocolSession } from '../protocol';
import { encodeGt06Packet } from './ack';

/**
 * GT06 server commands: packet 0x80 carrying an ASCII command (facts from the Concox GT06 document
 * and Traccar's Gt06ProtocolEncoder). Content: command length(1) = 4 + text length, server flag(4),
 * text, optional language word (0x0002 English). Engine stop/resume use "Relay,1#"/"Relay,0#";
 * devices configured as `alternative` expect "DYD,<password>#"/"HFYD,<password>#" (default
 * password 123456).
 */
const GT06_COMMAND = 0x80;
const DEFAULT_PASSWORD = '123456';

export interface Gt06Command {
  type: string;
  attributes?: Record<string, unknown>;
}

function commandText(cmd: Gt06Command): string {
  const attrs = cmd.attributes ?? {};
  const alternative = attrs.alternative === true;
  const password = typeof attrs.password === 'string' && attrs.password !== '' ? attrs.password : DEFAULT_PASSWORD;
  switch (cmd.type) {
    case 'engineStop':
      return alternative ? `DYD,${password}#` : 'Relay,1#';
    case 'engineResume':
      return alternative ? `HFYD,${password}#` : 'Relay,0#';
    case 'custom':
      if (typeof attrs.data !== 'string' || attrs.data === '')
        throw new DecodeError('bad_command', 'gt06: custom command needs attributes.data');
      return attrs.data;
    default:
      throw new DecodeError('unsupported_command', `gt06: command ${cmd.type} is not supported`);
  }
}

export function encodeGt06Command(cmd: Gt06Command, _session: ProtocolSession): Buffer {
  const text = Buffer.from(commandText(cmd), 'ascii');
  const language = cmd.attributes?.language === true;
  if (text.length > 200) throw new DecodeError('bad_command', 'gt06: command text too long for one packet');
  const content = Buffer.alloc(1 + 4 + text.length + (language ? 2 : 0));
  content.writeUInt8(4 + text.length, 0);
  content.writeUInt32BE(0, 1); // server flag
  text.copy(content, 5);
  if (language) content.writeUInt16BE(2, 5 + text.length);
  const serial = typeof cmd.attributes?.serial === 'number' ? cmd.attributes.serial : 0;
  return encodeGt06Packet(false, GT06_COMMAND, serial, content);
}
