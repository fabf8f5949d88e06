import type { DecodeError, DecodeResult } from '../protocols/protocol';
import type { ConnectionIdentity } from './identity';

/** One frame as a device port received it, decoded (or not) in arrival order by its connection. */
export interface ReceivedFrame {
  protocol: string;
  transport: 'tcp' | 'udp';
  /** `ip:port` of the device. */
  remote: string;
  bytes: Buffer;
  receivedAt: Date;
  /** performance.now() at arrival, for the ack latency. */
  arrivedAt: number;
  /** Unique id known for the connection after this frame decoded (learned at login or carried in the frame). */
  uniqueId: string | undefined;
  result?: DecodeResult;
  error?: DecodeError;
  /** What the TCP connection established about its device (none for UDP datagrams). */
  connection?: ConnectionIdentity;
}

/** The durable path a device port hands its frames to (FrameHandler; tests use their own). */
export interface FrameSink {
  /**
   * Resolves, with one verdict per frame in order, once every frame is durable or refused: no
   * frame's ack verdict comes before the whole batch is durable. `connectionOpen` false stops retries.
   */
  handleBatch(frames: readonly ReceivedFrame[], connectionOpen: () => boolean): Promise<FrameVerdict[]>;
}

/** What the connection does once a frame has been handled, in frame order. */
export type FrameVerdict =
  /** Durable (or nothing to store): write `ack` if any. `device` is set once the device is known. */
  | { action: 'ack'; ack?: Buffer; device?: { id: number; uniqueId: string } }
  /** Not stored and not acknowledged (dropped and counted); the connection goes on. */
  | { action: 'skip'; reason: string }
  /** Refuse the device: write `reply` if any, then close. */
  | { action: 'close'; reason: string; reply?: Buffer }
  /** The connection went away while the frame waited for the bus: nothing acknowledged. */
  | { action: 'abandoned' };
