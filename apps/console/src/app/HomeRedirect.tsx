import { Navigate } from 'react-router';
import { hasRole } from '../session/access';
import { useUser } from '../session/useUser';

/** Each role starts where its work is. */
export default function HomeRedirect() {
  const user = useUser();
  const to = hasRole(user, 'dispatcher', 'admin')
    ? '/map'
    : user.companyId !== null
      ? '/shipments'
      : hasRole(user, 'association_officer')
        ? '/approvals'
        : hasRole(user, 'association_analyst')
          ? '/dashboards'
          : '/map';
  return <Navigate to={to} replace />;
}
