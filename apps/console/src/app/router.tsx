import { createBrowserRouter, Navigate } from 'react-router';
import { RouteError } from '../ui/RouteError';
import { Loading } from '../ui/states';
import { SessionGate } from '../session/SessionGate';

/**
 * Every screen is its own lazily loaded chunk: the sign-in route loads only the session code,
 * the map loads MapLibre, the dashboards load the charts.
 */
const screen = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({ Component: (await load()).default });

export const router = createBrowserRouter([
  {
    path: '/sign-in',
    lazy: screen(() => import('../session/SignInScreen')),
    errorElement: <RouteError />,
    hydrateFallbackElement: <Loading page />,
  },
  // the link mailed to a new notification address: public, as the link may be opened where its user is not signed in
  {
    path: '/verify-email',
    lazy: screen(() => import('../session/VerifyEmailScreen')),
    errorElement: <RouteError />,
    hydrateFallbackElement: <Loading page />,
  },
  {
    path: '/',
    element: <SessionGate />,
    errorElement: <RouteError />,
    hydrateFallbackElement: <Loading page />,
    children: [
      {
        lazy: screen(() => import('./Shell')),
        children: [
          { index: true, lazy: screen(() => import('./HomeRedirect')) },
          { path: 'map', lazy: screen(() => import('../dispatch/LiveMapScreen')) },
          { path: 'devices', lazy: screen(() => import('../dispatch/DevicesScreen')) },
          { path: 'journeys', lazy: screen(() => import('../dispatch/JourneysBoardScreen')) },
          { path: 'journeys/new', lazy: screen(() => import('../dispatch/CreateJourneyScreen')) },
          { path: 'journeys/:id', lazy: screen(() => import('../dispatch/JourneyDetailScreen')) },
          { path: 'journeys/:id/replay', lazy: screen(() => import('../dispatch/replay/JourneyReplayScreen')) },
          { path: 'replay', lazy: screen(() => import('../dispatch/replay/ReplayScreen')) },
          { path: 'alert-rules', lazy: screen(() => import('../dispatch/rules/NotificationRulesScreen')) },
          { path: 'shipments', lazy: screen(() => import('../company/ShipmentsScreen')) },
          { path: 'shipments/new', lazy: screen(() => import('../company/CreateShipmentScreen')) },
          { path: 'shipments/:id', lazy: screen(() => import('../company/ShipmentDetailScreen')) },
          { path: 'cargo', lazy: screen(() => import('../company/CargoScreen')) },
          { path: 'cargo/:id', lazy: screen(() => import('../company/CargoDetailScreen')) },
          { path: 'certificates', lazy: screen(() => import('../company/CertificatesScreen')) },
          { path: 'inbox', lazy: screen(() => import('../company/InboxScreen')) },
          { path: 'oversight', lazy: screen(() => import('../association/OversightScreen')) },
          { path: 'oversight/:kind', lazy: screen(() => import('../association/OversightScreen')) },
          { path: 'approvals', lazy: screen(() => import('../association/ApprovalQueueScreen')) },
          { path: 'complaints', lazy: screen(() => import('../association/ComplaintsScreen')) },
          { path: 'complaints/new', lazy: screen(() => import('../association/FileComplaintScreen')) },
          { path: 'complaints/:id', lazy: screen(() => import('../association/ComplaintDetailScreen')) },
          { path: 'disciplinary', lazy: screen(() => import('../association/DisciplinaryScreen')) },
          { path: 'ratings', lazy: screen(() => import('../association/RatingsScreen')) },
          { path: 'dashboards', lazy: screen(() => import('../association/DashboardsScreen')) },
          { path: 'observatory', lazy: screen(() => import('../association/observatory/ObservatoryScreen')) },
          { path: 'reports', lazy: screen(() => import('../reports/ReportsScreen')) },
          { path: 'admin/users', lazy: screen(() => import('../admin/UsersScreen')) },
          { path: 'admin/companies', lazy: screen(() => import('../admin/CompaniesScreen')) },
          { path: 'admin/devices', lazy: screen(() => import('../admin/DevicesAdminScreen')) },
          { path: 'admin/inventories', lazy: screen(() => import('../admin/InventoriesScreen')) },
          { path: 'admin/routes', lazy: screen(() => import('../admin/RoutesScreen')) },
          { path: 'account', lazy: screen(() => import('../session/AccountScreen')) },
          { path: 'account/notifications', lazy: screen(() => import('../session/NotificationSettingsScreen')) },
          { path: 'admin/geofences', lazy: screen(() => import('../admin/GeofencesScreen')) },
          { path: 'admin/groups', lazy: screen(() => import('../admin/GroupsScreen')) },
          { path: 'admin/drivers', lazy: screen(() => import('../admin/DriversScreen')) },
          { path: 'admin/maintenance', lazy: screen(() => import('../admin/MaintenanceScreen')) },
          { path: 'admin/computed-attributes', lazy: screen(() => import('../admin/ComputedAttributesScreen')) },
          { path: '*', lazy: screen(() => import('../ui/NotFoundScreen')) },
        ],
      },
    ],
  },
  { path: '*', element: <Navigate to="/" replace /> },
]);
