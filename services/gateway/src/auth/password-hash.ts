import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const KEY_LENGTH = 32;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;

function derive(password: string, salt: Buffer, cost: number, r: number, p: number): Promise<Buffer> {
  const N = 2 ** cost;
  const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r + 1024 * 1024 };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

interface Parsed {
  cost: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

function parse(stored: string): Parsed | undefined {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
  const [cost, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  if (![cost, r, p].every(Number.isInteger) || cost < 1 || cost > 24 || r < 1 || r > 32 || p < 1 || p > 16) return undefined;
  const salt = Buffer.from(parts[4]!, 'base64url');
  const key = Buffer.from(parts[5]!, 'base64url');
  if (salt.length < 16 || key.length !== KEY_LENGTH) return undefined;
  return { cost, r, p, salt, key };
}

/**
 * Password hashing with scrypt (memory-hard; node's crypto, no native add-on). The stored form
 * `scrypt$<log2 N>$<r>$<p>$<salt>$<key>` carries its own parameters, so raising the cost later
 * leaves old hashes verifiable and `needsRehash` tells sign-in to upgrade them.
 */
export function passwordHasher(cost: number) {
  let dummy: Promise<string> | undefined;
  return {
    async hash(password: string): Promise<string> {
      const salt = randomBytes(16);
      const key = await derive(password, salt, cost, BLOCK_SIZE, PARALLELISM);
      return `scrypt$${cost}$${BLOCK_SIZE}$${PARALLELISM}$${salt.toString('base64url')}$${key.toString('base64url')}`;
    },
    /** True when the password matches; false for a wrong password or a malformed hash. */
    async verify(password: string, stored: string | null): Promise<boolean> {
      const parsed = stored ? parse(stored) : undefined;
      if (!parsed) {
        // same work as a real check, so an unknown account does not answer faster
        dummy ??= this.hash('not the password of anyone');
        const d = parse(await dummy)!;
        await derive(password, d.salt, d.cost, d.r, d.p);
        return false;
      }
      const key = await derive(password, parsed.salt, parsed.cost, parsed.r, parsed.p);
      return timingSafeEqual(key, parsed.key);
    },
    needsRehash(stored: string): boolean {
      const parsed = parse(stored);
      return !parsed || parsed.cost < cost || parsed.r !== BLOCK_SIZE || parsed.p !== PARALLELISM;
    },
  };
}
export type PasswordHasher = ReturnType<typeof passwordHasher>;
