import WebSocket from 'ws';
import { SocketMessage } from '@corridor/contracts';

/**
 * A client of /api/socket as the console is one, for the multi-instance run: it counts every
 * position and event frame it receives by id (the ids the producers give, stable across
 * redelivery), apart from the snapshot the gateway sends first, and the keepalives.
 */
export class LiveClient {
  /** Position frames received after the snapshot, by position id: how many times each. */
  readonly positions = new Map<number, number>();
  /** Event frames received (allEvents: every event, as the console asks for them), by event id: how many times each, and the type. */
  readonly events = new Map<string, { type: string; n: number }>();
  snapshotPositions = -1;
  keepalives = 0;
  unreadable = 0;
  closed: { code: number; reason: string } | undefined;

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      let msg: SocketMessage;
      try {
        const parsed = SocketMessage.safeParse(JSON.parse(String(data)));
        if (!parsed.success) throw parsed.error;
        msg = parsed.data;
      } catch {
        this.unreadable++;
        return;
      }
      if (this.snapshotPositions < 0) {
        // the first frame is the snapshot of the latest positions (gateway live-feed.ts)
        this.snapshotPositions = msg.positions?.length ?? 0;
        return;
      }
      if (Object.keys(msg).length === 0) this.keepalives++;
      for (const p of msg.positions ?? []) this.positions.set(p.id, (this.positions.get(p.id) ?? 0) + 1);
      for (const e of msg.allEvents ?? []) this.events.set(String(e.id), { type: e.type, n: (this.events.get(String(e.id))?.n ?? 0) + 1 });
    });
    socket.on('close', (code, reason) => {
      this.closed = { code, reason: String(reason) };
    });
  }

  /** Opens the socket with a session cookie; resolves once the snapshot frame is in. */
  static async open(gatewayUrl: string, cookie: string): Promise<LiveClient> {
    const socket = new WebSocket(`${gatewayUrl.replace(/^http/, 'ws')}/api/socket?allEvents=true`, { headers: { cookie } });
    const client = new LiveClient(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.once('unexpected-response', (_req, res) => reject(new Error(`socket upgrade refused: ${res.statusCode}`)));
      socket.once('open', () => resolve());
    });
    while (client.snapshotPositions < 0 && !client.closed) await new Promise((r) => setTimeout(r, 50));
    if (client.closed) throw new Error(`socket closed before its snapshot: ${client.closed.code} ${client.closed.reason}`);
    return client;
  }

  close(): void {
    if (!this.closed) this.socket.terminate();
  }
}

/** Signs in with email and password (POST /api/session) and returns the session cookie to send back. */
export async function signIn(gatewayUrl: string, login: { email: string; password: string }): Promise<string> {
  const res = await fetch(`${gatewayUrl}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(login),
    signal: AbortSignal.timeout(60_000),
  });
  if (!res.ok) throw new Error(`sign-in at ${gatewayUrl}: ${res.status} ${await res.text()}`);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('corridor_session='));
  if (!cookie) throw new Error(`sign-in at ${gatewayUrl}: no session cookie`);
  return cookie.split(';')[0]!;
}

/** GET path with the cookie: the status and, when 200, the body. */
export async function getWithCookie(gatewayUrl: string, path: string, cookie: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${gatewayUrl}/api${path}`, { headers: { cookie }, signal: AbortSignal.timeout(60_000) });
  return { status: res.status, body: res.ok ? await res.json() : await res.text() };
}

export async function signOut(gatewayUrl: string, cookie: string): Promise<number> {
  const res = await fetch(`${gatewayUrl}/api/session`, { method: 'DELETE', headers: { cookie }, signal: AbortSignal.timeout(60_000) });
  await res.body?.cancel();
  return res.status;
}
