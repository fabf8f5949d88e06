import { describe, expect, it } from 'vitest';
import { passwordHasher } from './password-hash';

describe('passwordHasher (scrypt)', () => {
  const hasher = passwordHasher(12);

  it('verifies the right password and rejects a wrong one', async () => {
    const h = await hasher.hash('correct horse battery');
    expect(h).toMatch(/^scrypt\$12\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(await hasher.verify('correct horse battery', h)).toBe(true);
    expect(await hasher.verify('correct horse batterY', h)).toBe(false);
    expect(await hasher.verify('', h)).toBe(false);
  });

  it('salts every hash', async () => {
    const [a, b] = [await hasher.hash('same password'), await hasher.hash('same password')];
    expect(a).not.toBe(b);
    expect(await hasher.verify('same password', b)).toBe(true);
  });

  it('treats composed and decomposed unicode as the same password', async () => {
    const h = await hasher.hash('caf\u00e9-password');
    expect(await hasher.verify('cafe\u0301-password', h)).toBe(true);
  });

  it('rejects malformed or tampered hashes instead of throwing', async () => {
    const h = await hasher.hash('some password');
    expect(await hasher.verify('some password', null)).toBe(false);
    expect(await hasher.verify('some password', 'plain-text')).toBe(false);
    expect(await hasher.verify('some password', h.replace('$12$', '$99$'))).toBe(false);
    const parts = h.split('$');
    parts[5] = Buffer.alloc(32, 1).toString('base64url');
    expect(await hasher.verify('some password', parts.join('$'))).toBe(false);
  });

  it('asks for a rehash when the configured cost rose', async () => {
    const old = await passwordHasher(10).hash('password one');
    expect(hasher.needsRehash(old)).toBe(true);
    expect(hasher.needsRehash(await hasher.hash('password one'))).toBe(false);
    expect(await hasher.verify('password one', old)).toBe(true);
  });
});
