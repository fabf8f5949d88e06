/**
 * Whether this tab is ending its session. While it is, the session gate shows "Signing out…" in
 * place of every screen, so no screen has a request in flight when the server ends the session
 * (each would come back 401: red lines in the browser console on every sign-out).
 */
let signingOut = false;
const listeners = new Set<() => void>();

export function isSigningOut(): boolean {
  return signingOut;
}

export function setSigningOut(on: boolean): void {
  signingOut = on;
  for (const l of listeners) l();
}

export function onSigningOut(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
