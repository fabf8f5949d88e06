import { useSyncExternalStore } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ErrorState, Loading } from '../ui/states';
import { useSession } from './useSession';
import { UserContext } from './user-context';
import { isSigningOut, onSigningOut } from './signing-out';

/** Screens behind it need a session: without one the browser goes to sign-in and comes back after. */
export function SessionGate() {
  const { user, loading, error } = useSession();
  const location = useLocation();
  const { t } = useTranslation();
  const signingOut = useSyncExternalStore(onSigningOut, isSigningOut);
  if (signingOut) return <Loading label={t('session.signingOut')} page />;
  if (loading) return <Loading label={t('session.checking')} page />;
  if (error) return <ErrorState error={error} page />;
  if (!user) {
    const next = location.pathname + location.search;
    return <Navigate to={next === '/' ? '/sign-in' : `/sign-in?next=${encodeURIComponent(next)}`} replace />;
  }
  return (
    <UserContext.Provider value={user}>
      <Outlet />
    </UserContext.Provider>
  );
}
