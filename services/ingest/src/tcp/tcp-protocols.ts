import type { Protocol } from '../protocols/protocol';
import { gt06Protocol } from '../protocols/gt06/index';
import { encodeImeiAck, teltonikaProtocol } from '../protocols/teltonika/index';
import { h02Protocol } from '../protocols/h02/index';
import { gps103Protocol } from '../protocols/gps103';
import { tk103Protocol } from '../protocols/tk103';
import { meitrackProtocol } from '../protocols/meitrack/index';
import { jt808Protocol } from '../protocols/jt808/index';
import { ruptelaProtocol } from '../protocols/ruptela/index';
import { jt701Protocol } from '../protocols/jt701/index';
import { queclinkProtocol } from '../protocols/queclink/index';
import { wialonLoginReject, wialonProtocol } from '../protocols/wialon/index';
import type { IngestConfig } from '../config';

type PortVar =
  | 'GT06_PORT'
  | 'TELTONIKA_PORT'
  | 'H02_PORT'
  | 'GPS103_PORT'
  | 'TK103_PORT'
  | 'MEITRACK_PORT'
  | 'JT808_PORT'
  | 'RUPTELA_PORT'
  | 'JT701_PORT'
  | 'QUECLINK_PORT'
  | 'WIALON_PORT';

export interface TcpProtocolEntry {
  protocol: Protocol;
  /** The config variable holding its port (0 disables it). */
  portVar: PortVar & keyof IngestConfig;
  /** The reply that refuses an unknown device at login, where the protocol has one. */
  loginReject?: () => Buffer;
}

/** Every protocol ingest serves on a TCP port of its own. */
export const tcpProtocols: readonly TcpProtocolEntry[] = [
  { protocol: gt06Protocol, portVar: 'GT06_PORT' },
  { protocol: teltonikaProtocol, portVar: 'TELTONIKA_PORT', loginReject: () => encodeImeiAck(false) },
  { protocol: h02Protocol, portVar: 'H02_PORT' },
  { protocol: gps103Protocol, portVar: 'GPS103_PORT' },
  { protocol: tk103Protocol, portVar: 'TK103_PORT' },
  { protocol: meitrackProtocol, portVar: 'MEITRACK_PORT' },
  { protocol: jt808Protocol, portVar: 'JT808_PORT' },
  { protocol: ruptelaProtocol, portVar: 'RUPTELA_PORT' },
  { protocol: jt701Protocol, portVar: 'JT701_PORT' },
  { protocol: queclinkProtocol, portVar: 'QUECLINK_PORT' },
  { protocol: wialonProtocol, portVar: 'WIALON_PORT', loginReject: wialonLoginReject },
];

export type TcpProtocolName =
  'gt06' | 'teltonika' | 'h02' | 'gps103' | 'tk103' | 'meitrack' | 'jt808' | 'ruptela' | 'jt701' | 'queclink' | 'wialon';

export function tcpProtocol(name: string): TcpProtocolEntry | undefined {
  return tcpProtocols.find((e) => e.protocol.name === name);
}
