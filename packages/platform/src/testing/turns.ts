import { once } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * Turns across test workers: files that must not run at the same time as each other (the console's
 * browser files: one shared stack and its demo accounts, a browser each) take turns, while the
 * run's other files go on beside them in the same worker pool.
 *
 * The queue lives in the process that runs the global setup (`startTurns`, its port handed to the
 * files with `provide`): a file connects (`takeTurn`), is granted its turn when the server writes
 * one byte, and gives it back by closing the connection. A worker that dies closes its connection
 * too, so a crashed file never keeps the turn.
 */
export async function startTurns(): Promise<{ port: number; queued(): number; close(): Promise<void> }> {
  const queue: Socket[] = [];
  const grantHead = (): void => {
    const head = queue[0];
    if (head && !head.destroyed) head.write('1');
  };
  const server: Server = createServer((socket) => {
    socket.on('error', () => undefined);
    socket.once('close', () => {
      const at = queue.indexOf(socket);
      if (at < 0) return;
      queue.splice(at, 1);
      if (at === 0) grantHead();
    });
    queue.push(socket);
    if (queue.length === 1) grantHead();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the turns server has no port');
  return {
    port: address.port,
    /** Connections holding or waiting for a turn. */
    queued: () => queue.length,
    async close() {
      for (const s of queue.splice(0)) s.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}

/** Waits for this file's turn on the server at `port` (resolves once granted); `release()` gives it back. */
export async function takeTurn(port: number): Promise<{ release(): Promise<void> }> {
  const socket = connect({ port, host: '127.0.0.1' });
  socket.on('error', () => undefined);
  const granted = new Promise<void>((resolve, reject) => {
    socket.once('data', () => resolve());
    socket.once('close', () => reject(new Error('the turns server closed the connection before granting a turn')));
  });
  await granted;
  return {
    async release() {
      if (socket.destroyed) return;
      const closed = once(socket, 'close');
      socket.end();
      await closed;
    },
  };
}
