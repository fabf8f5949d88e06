import type { Fix } from '../truck';
import { GT06_LOCATION, GT06_LOGIN, gt06Location, gt06Login, isGt06Ack, splitGt06Replies } from './gt06-encoder';
import { teltonikaAvlPacket, teltonikaImei } from './teltonika-encoder';

/** What a reply did for the request a device is waiting on. */
type ReplyMatch =
  /** Not enough bytes yet. */
  | { kind: 'more' }
  /** `consumed` bytes were something else (e.g. a server command); keep waiting. */
  | { kind: 'other'; consumed: number; frame: Buffer }
  | { kind: 'ack'; consumed: number }
  | { kind: 'refused'; consumed: number };

export interface DeviceRequest {
  frame: Buffer;
  match(received: Buffer): ReplyMatch;
}

/** A tracker's side of one protocol: the frames it sends and how it recognises their acknowledgements. */
export interface DeviceCodec {
  readonly protocol: string;
  login(): DeviceRequest;
  position(fix: Fix): DeviceRequest;
}

/** GT06: every packet carries a serial; the server answers with the same protocol number and serial. */
export function gt06Codec(imei: string): DeviceCodec {
  let serial = 0;
  const request = (type: number, frame: Buffer, s: number): DeviceRequest => ({
    frame,
    match(received) {
      const { frames } = splitGt06Replies(received);
      const first = frames[0];
      if (!first) return { kind: 'more' };
      const consumed = received.indexOf(first) + first.length;
      return isGt06Ack(first, type, s) ? { kind: 'ack', consumed } : { kind: 'other', consumed, frame: Buffer.from(first) };
    },
  });
  return {
    protocol: 'gt06',
    login() {
      serial = (serial + 1) & 0xffff;
      return request(GT06_LOGIN, gt06Login(imei, serial), serial);
    },
    position(fix) {
      serial = (serial + 1) & 0xffff;
      return request(GT06_LOCATION, gt06Location(fix, serial), serial);
    },
  };
}

/** Teltonika: the IMEI is answered with one byte (01 accept, 00 refuse), an AVL packet with its record count. */
export function teltonikaCodec(imei: string): DeviceCodec {
  return {
    protocol: 'teltonika',
    login: () => ({
      frame: teltonikaImei(imei),
      match(received) {
        if (received.length < 1) return { kind: 'more' };
        return received[0] === 0x01 ? { kind: 'ack', consumed: 1 } : { kind: 'refused', consumed: 1 };
      },
    }),
    position: (fix) => ({
      frame: teltonikaAvlPacket([fix]),
      match(received) {
        if (received.length < 4) return { kind: 'more' };
        return received.readUInt32BE(0) === 1
          ? { kind: 'ack', consumed: 4 }
          : { kind: 'other', consumed: 4, frame: Buffer.from(received.subarray(0, 4)) };
      },
    }),
  };
}
