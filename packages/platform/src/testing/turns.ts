import { once } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * Turns across test workers: files that must not share one resource with each other (the console's
 * browser files: a stack and its demo accounts, a browser each) take turns on one of `lanes` copies
 * of it (a lane: one stack each), while the run's other files go on beside them in the same pool.
 *
 * The queue lives in the process that runs the global setup (`startTurns`, its port handed to the
 * files with `provide`): a file connects (`takeTurn`), is granted a free lane when the server writes
 * one byte (the lane's number), and gives it back by closing the connection. A worker that dies
 * closes its connection too, so a crashed file never keeps its lane.
 */
export async function startTurns(
  lanes = 1,
): Promise<{ port: number; lanes: number; queued(): number; holding(): number; close(): Promise<void> }> {
  if (!Number.isInteger(lanes) || lanes < 1 || lanes > 255) throw new Error(`turns need 1 to 255 lanes, not ${lanes}`);
  /** Connections waiting for a lane, in the order they asked. */
  const waiting: Socket[] = [];
  /** The connection holding each lane (undefined: free). */
  const held: (Socket | undefined)[] = Array.from({ length: lanes }, () => undefined);
  const grant = (): void => {
    for (let lane = 0; lane < lanes && waiting.length > 0; lane++) {
      if (held[lane]) continue;
      const next = waiting.shift()!;
      held[lane] = next;
      next.write(Buffer.of(lane));
    }
  };
  const server: Server = createServer((socket) => {
    socket.on('error', () => undefined);
    socket.once('close', () => {
      const lane = held.indexOf(socket);
      if (lane >= 0) {
        held[lane] = undefined;
        grant();
        return;
      }
      const at = waiting.indexOf(socket);
      if (at >= 0) waiting.splice(at, 1);
    });
    waiting.push(socket);
    grant();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the turns server has no port');
  return {
    port: address.port,
    lanes,
    /** Connections holding or waiting for a turn. */
    queued: () => waiting.length + held.filter(Boolean).length,
    /** Lanes held now. */
    holding: () => held.filter(Boolean).length,
    async close() {
      for (const s of [...waiting.splice(0), ...held.splice(0)]) s?.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}

/** Waits for this file's turn on the server at `port` (resolves once granted, with its lane); `release()` gives it back. */
export async function takeTurn(port: number): Promise<{ lane: number; release(): Promise<void> }> {
  const socket = connect({ port, host: '127.0.0.1' });
  socket.on('error', () => undefined);
  const lane = await new Promise<number>((resolve, reject) => {
    socket.once('data', (d: Buffer) => resolve(d[0]!));
    socket.once('close', () => reject(new Error('the turns server closed the connection before granting a turn')));
  });
  return {
    lane,
    async release() {
      if (socket.destroyed) return;
      const closed = once(socket, 'close');
      socket.end();
      await closed;
    },
  };
}
