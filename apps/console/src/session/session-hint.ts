/**
 * Whether this browser signed in through the console and has not signed out since. Without it the
 * console does not ask GET /api/session (which answers 404 without a session: a red line in the
 * browser console on every visit to the sign-in page); with OpenID configured it always asks, as
 * the identity provider's redirect brings a session the console did not see being made.
 */
const KEY = 'corridor.session';

export function hasSessionHint(): boolean {
  try {
    return localStorage.getItem(KEY) === '1';
  } catch {
    return true; // storage blocked: ask the server
  }
}

export function setSessionHint(on: boolean): void {
  try {
    if (on) localStorage.setItem(KEY, '1');
    else localStorage.removeItem(KEY);
  } catch {
    /* storage blocked */
  }
}
