import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as authenticator apps (and Traccar) use it: HMAC-SHA1, six digits, 30 s steps. */
const TOTP_PERIOD_SECONDS = 30;
const DIGITS = 6;
/** Codes of the previous and the next step are accepted too (clock drift). */
const WINDOW = 1;

/** A new random secret: 160 bits (RFC 4226's recommended length), base32 without padding. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/**
 * The time step (seconds since the epoch / 30) of the code, when it is the code of `secret` for the
 * step of `at` or one step either side; undefined when it is not.
 */
export function totpStepOf(secret: string, code: string, at: Date): number | undefined {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: DIGITS, period: TOTP_PERIOD_SECONDS });
  const delta = totp.validate({ token: code, timestamp: at.getTime(), window: WINDOW });
  if (delta === null) return undefined;
  return TOTP.counter({ period: TOTP_PERIOD_SECONDS, timestamp: at.getTime() }) + delta;
}
