import { useRouteError } from 'react-router';
import { ErrorState } from './states';

/** What the router shows when a screen fails to load or throws while rendering. */
export function RouteError() {
  const error = useRouteError();
  return <ErrorState error={error} retry={() => window.location.reload()} page />;
}
