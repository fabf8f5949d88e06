import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * A port for a listener that binds later (a child process, a broker that stops and starts on the
 * same port). Picked at random below the kernel's ephemeral range, which `listen(0)` and every
 * outgoing connection draw from: test files run two at a time, and a port taken from that range
 * and closed again was seen bound by another file's listener before the child got to it
 * (EADDRINUSE in the multi-instance run). Below the range only another caller of this function
 * can take it, and one picked from about 12,000 ports at random rarely meets another. Each pick is
 * checked free by binding it once, and a process is never handed the same port twice (its callers
 * bind them later, all at once).
 */
const LOWEST = 20_000;
const ATTEMPTS = 50;
const handedOut = new Set<number>();

/** The first port of the kernel's ephemeral range (Linux), or undefined where it cannot be read. */
function ephemeralStart(): number | undefined {
  try {
    const first = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(first) && first > LOWEST + 1000 ? first : undefined;
  } catch {
    return undefined;
  }
}

/** Binds 127.0.0.1:port (0: any) and closes again; the port bound, or undefined when it is taken. */
async function tryBind(port: number): Promise<number | undefined> {
  const server = createServer();
  const bound = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false)).listen(port, '127.0.0.1', () => resolve(true));
  });
  if (!bound) return undefined;
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return address && typeof address !== 'string' ? address.port : undefined;
}

/** A port nothing listens on right now and not handed out before, outside the ephemeral range where the system has one. */
export async function freePort(): Promise<number> {
  const below = ephemeralStart();
  for (let i = 0; i < ATTEMPTS; i++) {
    const port = await tryBind(below === undefined ? 0 : randomInt(LOWEST, below));
    if (port !== undefined && !handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free port after ${ATTEMPTS} tries`);
}
