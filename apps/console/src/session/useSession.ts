import { flushSync } from 'react-dom';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { sessionEndpoints } from '@corridor/contracts/session';
import { systemEndpoints } from '@corridor/contracts/system';
import type { User } from '@corridor/contracts/users';
import { call } from '../api/client';
import { endpoint } from '../api/endpoint';
import { ApiError } from '../api/errors';
import { keyOf, useApiQuery } from '../api/hooks';
import { closeLiveSockets } from '../live/socket';
import { hasSessionHint, setSessionHint } from './session-hint';
import { setSigningOut } from './signing-out';

export const sessionGet = endpoint(sessionEndpoints, 'session.get');
export const sessionCreate = endpoint(sessionEndpoints, 'session.create');
const sessionDelete = endpoint(sessionEndpoints, 'session.delete');
const serverGet = endpoint(systemEndpoints, 'server.get');

/**
 * The signed-in user, or null. GET /api/session answers 404 without a session (a red line in the
 * browser console), so it is asked only when this browser may have one: after a sign-in here, or
 * on the way back from the OpenID provider (the button sets the hint before it leaves).
 */
export function useSession() {
  const ask = hasSessionHint();
  const q = useApiQuery(sessionGet, {}, { staleTime: Infinity, retry: false, enabled: ask });
  const signedOut = !ask || (q.error instanceof ApiError && (q.error.status === 404 || q.error.status === 401));
  if (signedOut && q.error) setSessionHint(false);
  return { user: signedOut ? null : (q.data ?? null), loading: !signedOut && q.isPending, error: signedOut ? null : q.error };
}

export function useServer() {
  return useApiQuery(serverGet, {}, { staleTime: Infinity });
}

export function useSetSession() {
  const client = useQueryClient();
  return (user: User | null) => {
    setSessionHint(Boolean(user));
    if (user) client.setQueryData(keyOf(sessionGet, {}), user);
    else {
      client.clear();
      client.setQueryData(keyOf(sessionGet, {}), undefined);
      void client.invalidateQueries({ queryKey: keyOf(sessionGet, {}) });
    }
  };
}

/**
 * Sign-out: first every screen is taken down (the gate shows "Signing out…", rendered at once) and
 * the requests still in flight are cancelled, then the live feed and the session on the server end,
 * then everything cached for the user is forgotten and the browser goes to sign-in.
 */
export function useSignOut() {
  const client = useQueryClient();
  const setSession = useSetSession();
  const navigate = useNavigate();
  return async (): Promise<void> => {
    flushSync(() => setSigningOut(true));
    await client.cancelQueries();
    closeLiveSockets();
    try {
      await call(sessionDelete);
    } finally {
      setSession(null);
      void navigate('/sign-in', { replace: true });
      setSigningOut(false);
    }
  };
}
