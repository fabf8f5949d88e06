import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort } from './free-port';

const ephemeralStart = (): number | undefined => {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
  } catch {
    return undefined;
  }
};

describe('freePort', () => {
  it('hands out ports that can be bound, never the same one twice, below the ephemeral range where there is one', async () => {
    const ports: number[] = [];
    for (let i = 0; i < 40; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
    const start = ephemeralStart();
    if (start !== undefined) for (const p of ports) expect(p).toBeLessThan(start);
    const server = createServer();
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(ports[0], '127.0.0.1', () => resolve()));
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
});
