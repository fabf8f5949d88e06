import { DecodeError, type DecodeResult, type ProtocolSession } from '../protocol';
import { commandResult, ignoredResult, positionsResult, stateResult } from '../result';
import { decodeAaa } from './aaa';
import { decodeCcc, decodeCce, type BinaryReports } from './binary';
import { encodeMeitrackCommand, meitrackChecksumValid } from './frame';

/**
 * Meitrack messages (facts from the Meitrack GPRS protocol documents and Traccar's
 * MeitrackProtocolDecoder):
 * - AAA: a position report, no answer;
 * - CCE / CCC: buffered binary reports, confirmed with `@@<flag><length>,<imei>,CCE,<count>*XX`
 *   (CCC likewise): the tracker then deletes that many packets from its cache;
 * - AAC: answered `AAC,1` (as Traccar does), nothing stored;
 * - D00 photo data: refused (photo transfer not supported);
 * - any other command (replies to A10, B07, C01, D03, D82, E91, ...): its text as a command result.
 * A wrong checksum still decodes, with crcValid=false.
 */
export const PROTOCOL = 'meitrack';

const TEXT_TYPES = new Set(['AAA', 'AAC', 'CCC', 'CCE', 'D00']);

function binaryResult(command: 'CCE' | 'CCC', reports: BinaryReports, flag: string, deviceId: string, crcValid: boolean): DecodeResult {
  const o = { type: command, crcValid, deviceId, ack: encodeMeitrackCommand(flag, deviceId, `${command},${reports.count}`) };
  if (reports.positions.length) return positionsResult(reports.positions, o);
  if (reports.state) return stateResult(reports.state.attributes, reports.state.alarms, { ...o, deviceTime: reports.state.time });
  return ignoredResult('buffered report without packets', o);
}

export function decodeMeitrack(frame: Buffer, session: ProtocolSession): DecodeResult {
  if (frame[0] !== 0x24 || frame[1] !== 0x24) throw new DecodeError('bad_frame', "meitrack: frame must start with '$$'");
  const firstComma = frame.indexOf(0x2c);
  const secondComma = firstComma < 0 ? -1 : frame.indexOf(0x2c, firstComma + 1);
  if (secondComma < 0) throw new DecodeError('malformed', 'meitrack: no imei and command');
  const deviceId = frame.subarray(firstComma + 1, secondComma).toString('latin1');
  if (!/^\d{1,20}$/.test(deviceId)) throw new DecodeError('malformed', 'meitrack: bad imei');
  session.deviceId = deviceId;
  const flag = String.fromCharCode(frame[2] ?? 0x41);
  const command = frame.subarray(secondComma + 1, secondComma + 4).toString('latin1');
  const star = frame.lastIndexOf(0x2a);
  if (star < secondComma) throw new DecodeError('malformed', "meitrack: no '*' before the checksum");
  const crcValid = meitrackChecksumValid(frame, star);
  const type = TEXT_TYPES.has(command) || /^[A-Z]\d\d$/.test(command) ? command : 'other';
  const body = frame.subarray(secondComma + 5, star);

  if (command === 'CCE' || command === 'CCC') {
    const reports = command === 'CCE' ? decodeCce(body, deviceId) : decodeCcc(body, deviceId);
    return binaryResult(command, reports, flag, deviceId, crcValid);
  }
  if (command === 'AAA') {
    const position = decodeAaa(deviceId, body.toString('latin1').split(','));
    if (!position) return { ...ignoredResult('AAA report without a usable fix or time', { type, crcValid }), deviceId };
    return positionsResult([position], { type, crcValid, deviceId });
  }
  if (command === 'AAC')
    return { kind: 'heartbeat', positions: [], deviceId, crcValid, type, ack: encodeMeitrackCommand('z', deviceId, 'AAC,1') };
  if (command === 'D00') return { ...ignoredResult('D00 photo data: photo transfer is not supported', { type, crcValid }), deviceId };
  // A command reply: `<command>,<reply>` as Traccar reports D82 replies.
  const text = frame.subarray(secondComma + 1, star).toString('latin1');
  return commandResult(text, { type, crcValid, deviceId });
}
