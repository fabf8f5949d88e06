import { ByteReader } from '../byte-reader';
import { DecodeError, type DecodedPosition } from '../protocol';
import { CODEC, COMMAND_CODECS } from './codecs';
import { readGh3000Record, type Gh3000Record } from './gh3000';
import { readRecord } from './records';
import { readReply, type Reply } from './replies';

/**
 * Teltonika AVL data field (codec id, record count, records, record count), shared by TCP and UDP.
 *
 * Large multi-record packets from firmwares that add a 16-byte IO group (FM5300/FM6300 family;
 * Traccar's `teltonika.extended` option) do not parse as plain codec 8: every record ends with an
 * extra group count. The decoder reads a packet in the form the connection last used and, when
 * that leaves the record counts unmatched, once more in the other form; the form that parses is
 * remembered (`group16`).
 */

export interface AvlData {
  codec: number;
  /** Record count from the header (what the acknowledgement echoes). */
  count: number;
  positions: DecodedPosition[];
  /** Codec 7 records without a location. */
  locationless: Gh3000Record[];
  /** Codec 12/13/14 messages. */
  replies: Reply[];
  /** The records carried the 16-byte IO group. */
  group16: boolean;
}

function parseRecords(data: Buffer, deviceId: string | undefined, group16: boolean): AvlData {
  const r = new ByteReader(data, 'teltonika');
  const codec = r.u8();
  const count = r.u8();
  const out: AvlData = { codec, count, positions: [], locationless: [], replies: [], group16 };
  if (COMMAND_CODECS.has(codec)) {
    for (let i = 0; i < count; i++) out.replies.push(readReply(r, codec));
  } else if (codec === CODEC.gh3000) {
    const records = Array.from({ length: count }, () => readGh3000Record(r));
    placeGh3000Records(records, deviceId, out);
  } else if (codec === CODEC.c8 || codec === CODEC.c8e || codec === CODEC.c16) {
    for (let i = 0; i < count; i++) {
      const position = readRecord(r, codec, deviceId, group16);
      if (position) out.positions.push(position);
    }
  } else {
    throw new DecodeError('unsupported_codec', `teltonika: codec 0x${codec.toString(16)} is not supported`);
  }
  const trailer = r.u8();
  if (trailer !== count) throw new DecodeError('bad_frame', `teltonika: record counts differ (${count} vs ${trailer})`);
  if (r.remaining !== 0) throw new DecodeError('bad_frame', `teltonika: ${r.remaining} bytes after the record count`);
  return out;
}

/**
 * GH3000 records with a location become positions; a record without one takes the place of the
 * packet's fix nearest in time (valid=false, `outdated`, as Traccar's last-location rule), and
 * only a packet without any fix leaves them as state records.
 */
function placeGh3000Records(records: Gh3000Record[], deviceId: string | undefined, out: AvlData): void {
  const fixes = records.filter((rec) => rec.fix);
  for (const rec of records) {
    if (rec.fix) {
      out.positions.push(gh3000Position(rec, rec.fix, true, deviceId));
      continue;
    }
    const nearest = fixes.reduce<Gh3000Record | null>(
      (best, f) =>
        !best || Math.abs(f.time.getTime() - rec.time.getTime()) < Math.abs(best.time.getTime() - rec.time.getTime()) ? f : best,
      null,
    );
    if (!nearest?.fix) {
      out.locationless.push(rec);
      continue;
    }
    const place = {
      latitude: nearest.fix.latitude,
      longitude: nearest.fix.longitude,
      altitude: nearest.fix.altitude,
      course: 0,
      speed: 0,
      satellites: null,
    };
    const position = gh3000Position(rec, place, false, deviceId);
    position.attributes.outdated = true;
    out.positions.push(position);
  }
}

function gh3000Position(
  rec: Gh3000Record,
  fix: NonNullable<Gh3000Record['fix']>,
  valid: boolean,
  deviceId: string | undefined,
): DecodedPosition {
  const { hdop, battery, ...attributes } = rec.attributes;
  return {
    deviceId,
    fixTime: rec.time,
    valid,
    ...fix,
    hdop: typeof hdop === 'number' ? hdop : null,
    battery: typeof battery === 'number' ? battery : null,
    alarm: rec.alarms.length ? rec.alarms.join(',') : null,
    attributes,
  };
}

/**
 * Parses the AVL data field; `group16` is the form to try first (the connection's last). Codec 8,
 * 8E and 16 packets that fail in that form are read once more in the other.
 */
export function parseAvlData(data: Buffer, deviceId: string | undefined, group16 = false): AvlData {
  const codec = data[0];
  const retry = codec === CODEC.c8 || codec === CODEC.c8e || codec === CODEC.c16;
  try {
    return parseRecords(data, deviceId, group16);
  } catch (first) {
    if (!retry || !(first instanceof DecodeError)) throw first;
    try {
      return parseRecords(data, deviceId, !group16);
    } catch {
      throw first;
    }
  }
}
