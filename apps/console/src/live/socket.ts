import type { SocketMessage } from '@corridor/contracts/socket';

export type SocketState = 'connecting' | 'open' | 'closed';

export interface LiveSocketOptions {
  url: string;
  onMessage(msg: SocketMessage): void;
  onState(state: SocketState): void;
  /** Creates the WebSocket (tests and the benchmark pass a synthetic one). */
  create?: (url: string) => WebSocket;
}

const MAX_BACKOFF_MS = 30_000;

/** Every live socket this page has open, so that sign-out can end them before it ends the session. */
const openSockets = new Set<{ close(): void }>();

/**
 * Closes every live socket for good (no reconnect). Sign-out calls it before ending the session:
 * otherwise the server's close of the socket is followed by a reconnect that the ended session
 * refuses (a 401 in the browser console) while the screens are still mounted.
 */
export function closeLiveSockets(): void {
  for (const s of [...openSockets]) s.close();
}

/**
 * /api/socket with the session cookie: reconnects with a growing backoff after a drop (the server
 * sends a fresh snapshot on every connect, so nothing needs replaying). Frames that are not JSON
 * objects are ignored; `{}` is the keepalive.
 */
export function openLiveSocket(opts: LiveSocketOptions): { close(): void } {
  const create = opts.create ?? ((u: string) => new WebSocket(u));
  let socket: WebSocket | undefined;
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;

  const connect = (): void => {
    if (closed) return;
    opts.onState('connecting');
    const ws = create(opts.url);
    socket = ws;
    ws.onopen = () => {
      attempt = 0;
      opts.onState('open');
    };
    ws.onmessage = (ev: MessageEvent) => {
      if (typeof ev.data !== 'string') return;
      let msg: unknown;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (msg && typeof msg === 'object' && !Array.isArray(msg)) opts.onMessage(msg as SocketMessage);
    };
    ws.onclose = () => {
      if (socket !== ws) return;
      opts.onState('closed');
      if (closed) return;
      const delay = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** attempt++);
      timer = setTimeout(connect, delay);
    };
  };
  connect();
  const handle = {
    close() {
      closed = true;
      openSockets.delete(handle);
      if (timer) clearTimeout(timer);
      socket?.close();
    },
  };
  openSockets.add(handle);
  return handle;
}

/**
 * ws(s)://<this origin>/api/socket?allEvents=true: the console asks for every event of the user's
 * devices (allEvents frames: flags, journey changes), besides Traccar's `events` frames (what the
 * user's notification rules send to the web channel, with a sentence: the alerts).
 */
export function liveSocketUrl(location: Pick<Location, 'protocol' | 'host'>): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/socket?allEvents=true`;
}
