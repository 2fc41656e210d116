import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { RouteErrorPage } from '../features/shell/pages/route-error-page.tsx';
import { RootLayout } from './layouts/root-layout.tsx';
import { AuthLayout } from './layouts/auth-layout.tsx';
import { DashboardLayout } from './layouts/dashboard-layout.tsx';
import { CustomerLayout } from './layouts/customer-layout.tsx';
import { PublicLayout } from './layouts/public-layout.tsx';
import {
  authRoutes,
  cardEntryRoute,
  dashboardRoutes,
  customerRoutes,
  kioskRoute,
  publicRoutes,
} from './routes.tsx';

/** Every client route of spec §2. Server-owned paths (/api, /auth/logout, /dev) never reach here. */
const routes: RouteObject[] = [
  // Framed by the card forms: none of the app's providers, banners or layouts (decision 0063).
  { ...cardEntryRoute, errorElement: <RouteErrorPage /> },
  {
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      { index: true, element: <Navigate to="/dashboard" replace /> },
      kioskRoute,
      {
        path: 'auth',
        element: <AuthLayout />,
        children: authRoutes,
      },
      { element: <DashboardLayout />, children: dashboardRoutes },
      { element: <CustomerLayout />, children: customerRoutes },
      { element: <PublicLayout />, children: publicRoutes },
    ],
  },
];

export const router = createBrowserRouter(routes);
