/**
 * The least a GT06 server can do: answer each frame with its ack (`78 78 05 <protocol> <serial>
 * <CRC> 0D 0A`, the layout of tools/sim/senders/gt06-encoder.ts) and nothing else. Run as a child
 * process by suites/loadgen-ceiling.ts, several of them on one port (SO_REUSEPORT), to find what the
 * load generator can offer when the server costs next to nothing. Prints `{"event":"listening"}`.
 */
import { createServer, type Socket } from 'node:net';
import { gt06Packet } from '../../sim/senders/gt06-encoder';

const EMPTY = Buffer.alloc(0);

function serve(socket: Socket): void {
  socket.setNoDelay(true);
  let pending: Buffer = EMPTY;
  socket.on('error', () => undefined);
  socket.on('data', (chunk: Buffer) => {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    const acks: Buffer[] = [];
    while (pending.length >= 10) {
      const size = pending[2]! + 5;
      if (pending.length < size) break;
      acks.push(gt06Packet(pending[3]!, EMPTY, pending.readUInt16BE(size - 6)));
      pending = pending.subarray(size);
    }
    if (acks.length) socket.write(acks.length === 1 ? acks[0]! : Buffer.concat(acks));
  });
}

const server = createServer(serve);
server.listen({ host: '127.0.0.1', port: Number(process.env.PORT), reusePort: true }, () => {
  process.stdout.write(JSON.stringify({ event: 'listening' }) + '\n');
});
process.on('SIGTERM', () => process.exit(0));
