import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { newTotpSecret, totpStepOf } from './one-time-code';

// RFC 6238 appendix B: the SHA1 test secret is the ASCII "12345678901234567890"; at T = 59 s the
// 8-digit code is 94287082, so the 6-digit code (the same value mod 10^6) is 287082.
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('TOTP codes', () => {
  it('accepts the RFC 6238 test vector at its step and one step either side, not two', () => {
    expect(totpStepOf(RFC_SECRET, '287082', new Date(59_000))).toBe(1);
    expect(totpStepOf(RFC_SECRET, '287082', new Date(89_000))).toBe(1); // next step: previous code still fits
    expect(totpStepOf(RFC_SECRET, '287082', new Date(29_000))).toBe(1); // previous step: next code fits
    expect(totpStepOf(RFC_SECRET, '287082', new Date(119_000))).toBeUndefined();
    expect(totpStepOf(RFC_SECRET, '287083', new Date(59_000))).toBeUndefined();
  });

  it('makes 160-bit base32 secrets that a standard generator agrees with', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.toBe(secret);
    const at = new Date('2026-03-01T10:00:00Z');
    const code = TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: at.getTime() });
    expect(totpStepOf(secret, code, at)).toBe(Math.floor(at.getTime() / 30000));
  });
});
