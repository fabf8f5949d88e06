import { DecodeError, type DecodeResult, type ProtocolSession } from '../protocol';
import { commandResult } from '../result';

/**
 * Text frames `(<id>,...)` that Jointech JT709 seals send on the JT/T 808 port (Traccar's
 * Jt808ProtocolDecoder): `(<id>,1,001,BASE,2,TIME)` asks for the time and is answered with the same
 * text, `TIME` replaced by the server's UTC time `yyyyMMddHHmmss`; any other is a command reply.
 */
export function decodeJt808Text(frame: Buffer, session: ProtocolSession & { now?: () => Date }): DecodeResult {
  const sentence = frame.toString('latin1');
  const id = /^\((\d{6,20}),/.exec(sentence)?.[1];
  if (!id) throw new DecodeError('bad_id', `jt808: text frame without a device id (${sentence.slice(0, 24)})`);
  session.deviceId = id;
  const o = { type: 'text', crcValid: true, deviceId: id };
  if (/,BASE,2,/.test(sentence) && sentence.includes('TIME')) {
    const now = (session.now ?? (() => new Date()))().toISOString().replace(/[-:T]/g, '').slice(0, 14);
    return { kind: 'heartbeat', positions: [], ...o, ack: Buffer.from(sentence.replace('TIME', now), 'latin1') };
  }
  return commandResult(sentence, o);
}
