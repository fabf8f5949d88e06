import { spawn } from 'node:child_process';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '@corridor/platform';
import { IngestConfig } from '../config';
import { main } from './decode';
import { replayProtocols, type ReplaySummary } from './decode-replay';

/**
 * `pnpm decode` on real frames. Captures: GT06 login and 0x22 location, Teltonika codec 8 from
 * Traccar's public decoder tests (Gt06ProtocolDecoderTest, TeltonikaProtocolDecoderTest,
 * Gps103ProtocolDecoderTest); the Meitrack line is a Nairobi report from the Meitrack decoder test.
 */
/** The CLI's output lines as written (for --help, which is not JSON). */
async function runRaw(args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { input: Readable.from(['']), write: (l) => out.push(l), error: (l) => err.push(l) });
  return { code, out, err };
}

async function run(args: string[], lines: string[]): Promise<{ code: number; out: Record<string, unknown>[]; err: string[] }> {
  const out: Record<string, unknown>[] = [];
  const err: string[] = [];
  const code = await main(args, {
    input: Readable.from([lines.join('\n') + '\n']),
    write: (l) => out.push(JSON.parse(l) as Record<string, unknown>),
    error: (l) => err.push(l),
  });
  return { code, out, err };
}

const GT06_LOGIN = '78780D01086471700328358100093F040D0A';
const GT06_LOCATION = '787822220F0C1D023305C9027AC8180C46586000140001CC00287D001F71000001000820860D0A';

describe('pnpm decode', () => {
  it('GT06 hex lines through one session: login, then positions.v1 with the IMEI learned at login, and the acks', async () => {
    const { code, out } = await run(['--protocol', 'gt06'], [GT06_LOGIN, '', GT06_LOCATION]);
    expect(code).toBe(0);
    expect(out).toHaveLength(2);
    expect(out[0]).toMatchObject({ line: 1, kind: 'login', uniqueId: '864717003283581', ack: '78780501000955940d0a', positions: [] });
    expect(out[1]).toMatchObject({ line: 2, kind: 'position', ack: '787805220008a8420d0a' });
    const [p] = out[1]!.positions as Record<string, unknown>[];
    expect(p).toMatchObject({
      deviceId: 0,
      uniqueId: '864717003283581',
      protocol: 'gt06',
      fixTime: '2015-12-29T02:51:05.000Z',
      satellites: 9,
      crcValid: true,
    });
    expect(p!.latitude as number).toBeCloseTo(23.11169, 4);
    expect(p!.longitude as number).toBeCloseTo(114.4093, 4);
  });

  it('Teltonika: IMEI handshake then a codec 8 packet (ack = record count); a raw_frames JSON row replays too', async () => {
    const imei = '000f' + Buffer.from('356307042441013').toString('hex');
    const avl =
      '000000000000004c08010000016818d500580009c28d9f1cb3757a00be00c60f0053000f06f0011503c80001011d00fc0007423799180053cdf80dce426f430f88190bb8560bb802f100005aa110002887e000010000ee8d';
    const row = JSON.stringify({ id: 'x', protocol: 'teltonika', frame_hex: avl, outcome: 'position' });
    const { code, out } = await run(['--protocol', 'teltonika', '--hex'], [imei, avl, row]);
    expect(code).toBe(0);
    expect(out[0]).toMatchObject({ kind: 'login', ack: '01', uniqueId: '356307042441013' });
    expect(out[1]).toMatchObject({ kind: 'position', ack: '00000001' });
    expect((out[1]!.positions as unknown[])[0]).toMatchObject({
      uniqueId: '356307042441013',
      fixTime: '2019-01-04T12:27:19.000Z',
      latitude: 48.1523066,
      longitude: 16.3745183,
    });
    expect(out[2]).toMatchObject({ kind: 'position', ack: '00000001' });
  });

  it('text protocols read lines as text (GPS103 login answered LOAD, Meitrack frame completed with its CR LF)', async () => {
    const gps103 = await run(
      ['--protocol', 'gps103'],
      ['##,imei:359710045559474,A;', 'imei:359710045559474,tracker,151030080103,,F,000101.000,A,5443.3834,N,02512.9071,E,0.00,0;'],
    );
    expect(gps103.out[0]).toMatchObject({ kind: 'login', ack: Buffer.from('LOAD').toString('hex') });
    expect((gps103.out[1]!.positions as unknown[])[0]).toMatchObject({ fixTime: '2015-10-30T00:01:01.000Z' });
    const meitrack = await run(
      ['--protocol', 'meitrack'],
      [
        '$$D149,867047043162018,AAA,35,-1.264865,36.800705,211001105240,A,9,20,41.0,323,1,1697,1,0,000|00||,0000,4.33|12.96|1.92|2.72|2.69,0.000000|0|0.000000,*E1',
      ],
    );
    expect(meitrack.out[0]).toMatchObject({ kind: 'position', crcValid: true, uniqueId: '867047043162018' });
  });

  it('prints the error with its reason for a bad line and exits 1; events come out in events.v1 shape', async () => {
    const sos = '7878251613020C12141AC5027951430C2A16F60014000900000000001A00007C550300020002F1E70D0A'; // 0x16 alarm packet (Traccar test)
    const { code, out } = await run(['--protocol', 'gt06'], [GT06_LOGIN, 'abc', '787801', 'ffffffff', sos]);
    expect(code).toBe(1);
    expect(out[1]).toMatchObject({ line: 2, error: { reason: 'bad_input' } });
    expect(out[2]).toMatchObject({ line: 3, error: { reason: 'incomplete_frame' } });
    expect(out[3]).toMatchObject({ line: 4, error: { reason: 'bad_frame' } });
    const events = out[4]!.events as Record<string, unknown>[];
    expect(events[0]).toMatchObject({ type: 'alarm', deviceId: 0 });
  });

  it('names each frame message type and ends with a summary per type on stderr (positions, states, results, ignored, errors)', async () => {
    const status = '787808134606020002044dc5050d0a'; // 0x13 status (Traccar Gt06FrameDecoderTest)
    const reply = '78782d152500000000437574206f666620746865206675656c20737570706c793a2053756363657373210002013b898a0d0a'; // 0x15 reply
    const photo = '78781f3511061a0b24330503107d06084889cb01000100000cfa20e3acd301333fcb0d0a'; // 0x35 X1 photo
    const { code, out, err } = await run(['--protocol', 'gt06'], [GT06_LOGIN, GT06_LOCATION, status, reply, photo, '787801']);
    expect(code).toBe(1);
    expect(out.slice(0, 5).map((o) => o.type)).toEqual(['0x01', '0x22', '0x13', '0x15', '0x35']);
    expect(out[2]).toMatchObject({ kind: 'heartbeat', attributes: { ignition: true, batteryLevel: 100 } });
    expect((out[2]!.positions as Record<string, unknown>[])[0]).toMatchObject({
      valid: false,
      ignition: true,
      attributes: { outdated: true, batteryLevel: 100 },
    });
    expect(out[3]).toMatchObject({ kind: 'result', attributes: { result: 'Cut off the fuel supply: Success!' } });
    expect((out[3]!.events as Record<string, unknown>[])[0]).toMatchObject({
      type: 'commandResult',
      attributes: { result: 'Cut off the fuel supply: Success!' },
    });
    expect(out[4]).toMatchObject({ kind: 'ignored', ignoredReason: expect.stringContaining('photo') });
    const summary = (JSON.parse(err.at(-1)!) as { summary: ReplaySummary }).summary;
    expect(summary.protocol).toBe('gt06');
    expect(summary.types['0x22']).toEqual({ frames: 1, positions: 1, states: 0, results: 0, alarms: 0, ignored: 0 });
    expect(summary.types['0x13']).toMatchObject({ frames: 1, states: 1 });
    expect(summary.types['0x15']).toMatchObject({ frames: 1, results: 1 });
    expect(summary.types['0x35']).toMatchObject({ frames: 1, ignored: 1 });
    expect(summary.errors).toEqual({ incomplete_frame: 1 });
  });

  it('refuses unknown protocols and conflicting flags with the usage (exit 2)', async () => {
    expect((await run(['--protocol', 'nope'], [])).code).toBe(2);
    expect((await run(['--protocol', 'gt06', '--hex', '--text'], [])).code).toBe(2);
    expect((await run([], [])).err[0]).toContain('usage: pnpm decode');
  });

  it('--help lists every protocol it replays with the port ingest serves it on, as the config defaults it', async () => {
    const { code, out, err } = await runRaw(['--help']);
    expect(code).toBe(0);
    expect(err).toEqual([]);
    const text = out.join('\n');
    const defaults = parseConfig(IngestConfig, {}) as unknown as Record<string, number>;
    for (const name of replayProtocols) {
      const row = new RegExp(`^ {2}${name} +(\\d+)/(tcp|udp|http) +([A-Z0-9_]+_PORT) `, 'm').exec(text);
      expect(row, `${name} in --help`).not.toBeNull();
      expect(Number(row![1]), `${name}'s port`).toBe(defaults[row![3]!]);
    }
    expect(text).toMatch(/^ {2}wialon +5039\/tcp +WIALON_PORT/m);
  });

  it('runs as `pnpm decode` from the repository root', async () => {
    const child = spawn('pnpm', ['-s', 'decode', '--protocol', 'gt06'], {
      cwd: new URL('../../../../', import.meta.url),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdin.end(`${GT06_LOGIN}\n${GT06_LOCATION}\n`);
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const code = await new Promise<number | null>((r) => child.on('close', r));
    expect(code).toBe(0);
    const lines = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { kind: string });
    expect(lines.map((l) => l.kind)).toEqual(['login', 'position']);
  }, 30_000);
});
