/**
 * Whether this browser may have a session: it signed in through the console (or left for the
 * OpenID provider from the sign-in screen) and has not signed out since. Without it the console
 * does not ask GET /api/session, which answers 404 without a session: a red line in the browser
 * console on every visit to the sign-in page. A hint that proves wrong (the provider's sign-in was
 * abandoned, the session expired) costs one such answer and is dropped.
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
