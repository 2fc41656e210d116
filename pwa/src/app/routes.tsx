import { Suspense, type ReactNode } from 'react';
import type { RouteObject } from 'react-router';
import { cardEntryPath } from '@platform/schema/app/outside-services.rules';
import { allNavItems } from '@platform/schema/organizations/navigation.rules';
import { NotBuiltYet } from '../components/not-built-yet.tsx';
import { RequireNavAccess } from '../components/require-nav-access.tsx';
import { lazyComponent } from '../lib/lazy-component.ts';
import type { RouteHandle } from '../lib/route-handle.ts';
import { NotFoundPage } from '../features/shell/components/not-found-page.tsx';
// The branded app opens here (installed, it is the start URL): in the main bundle, so its first
// screen waits for no further chunk (under 1 kB).
import { CustomerHomePage } from './pages/customer-home.tsx';

// Route pages load on demand (a 200 kB gzipped budget for initial JS); the placeholders are a
// few lines and stay in the main bundle.
const LoginPage = lazyComponent(() => import('../features/auth/pages/login-page.tsx'), 'LoginPage');
const SignupPage = lazyComponent(
  () => import('../features/auth/pages/signup-page.tsx'),
  'SignupPage',
);
const ForgotPasswordPage = lazyComponent(
  () => import('../features/auth/pages/forgot-password-page.tsx'),
  'ForgotPasswordPage',
);
const ResetPasswordPage = lazyComponent(
  () => import('../features/auth/pages/reset-password-page.tsx'),
  'ResetPasswordPage',
);
const GoogleLoginPage = lazyComponent(
  () => import('../features/auth/pages/google-login-page.tsx'),
  'GoogleLoginPage',
);
const KioskModePage = lazyComponent(
  () => import('../features/kiosk/pages/kiosk-mode-page.tsx'),
  'KioskModePage',
);
const DashboardHomePage = lazyComponent(
  () => import('../features/dashboard/pages/dashboard-home-page.tsx'),
  'DashboardHomePage',
);
const AdminPage = lazyComponent(
  () => import('../features/dashboard/pages/admin-page.tsx'),
  'AdminPage',
);
const SitesPage = lazyComponent(
  () => import('../features/dashboard/pages/sites-page.tsx'),
  'SitesPage',
);
const SitesCreatePage = lazyComponent(
  () => import('../features/dashboard/pages/sites-create-page.tsx'),
  'SitesCreatePage',
);
const SmsPage = lazyComponent(() => import('../features/dashboard/pages/sms-page.tsx'), 'SmsPage');
const Crm = lazyComponent(() => import('./pages/crm.tsx'), 'Crm');
const PointOfSale = lazyComponent(() => import('./pages/pos.tsx'), 'PointOfSale');
const Calendar = lazyComponent(() => import('./pages/calendar.tsx'), 'Calendar');
const CrmCustomerProfile = lazyComponent(() => import('./pages/crm.tsx'), 'CrmCustomerProfile');
const CrmRedirect = lazyComponent(() => import('./pages/crm.tsx'), 'CrmRedirect');
const ContactListsPage = lazyComponent(
  () => import('../features/crm/pages/contact-lists-page.tsx'),
  'ContactListsPage',
);
const ImportPage = lazyComponent(
  () => import('../features/imports/pages/import-page.tsx'),
  'ImportPage',
);
const OrganizationManagementPage = lazyComponent(
  () => import('./pages/organization-management.tsx'),
  'OrganizationManagement',
);
const Settings = lazyComponent(() => import('./pages/settings.tsx'), 'Settings');
const TimeTrackingPage = lazyComponent(
  () => import('../features/time-tracking/pages/time-tracking-page.tsx'),
  'TimeTrackingPage',
);
const MyCalendarPage = lazyComponent(
  () => import('../features/customer-app/pages/my-calendar-page.tsx'),
  'MyCalendarPage',
);
const ShopPage = lazyComponent(
  () => import('../features/customer-app/pages/shop-page.tsx'),
  'ShopPage',
);
const PurchaseHistoryPage = lazyComponent(
  () => import('../features/customer-app/pages/purchase-history-page.tsx'),
  'PurchaseHistoryPage',
);
const CustomerPurchasePage = lazyComponent(
  () => import('../features/customer-app/pages/customer-purchase-page.tsx'),
  'CustomerPurchasePage',
);
const SubscriptionsPage = lazyComponent(
  () => import('../features/products/pages/subscriptions-page.tsx'),
  'SubscriptionsPage',
);
const AcceptInvitePage = lazyComponent(
  () => import('../features/products/pages/accept-invite-page.tsx'),
  'AcceptInvitePage',
);
const PackagesPage = lazyComponent(
  () => import('../features/products/pages/packages-page.tsx'),
  'PackagesPage',
);
const JoinTeamPage = lazyComponent(
  () => import('../features/team/pages/join-team-page.tsx'),
  'JoinTeamPage',
);
const TermsOfServicePage = lazyComponent(
  () => import('../features/shell/pages/terms-of-service-page.tsx'),
  'TermsOfServicePage',
);
const WaiverOfLiabilityPage = lazyComponent(
  () => import('../features/organizations/pages/waiver-of-liability-page.tsx'),
  'WaiverOfLiabilityPage',
);
const CookiesPage = lazyComponent(
  () => import('../features/shell/pages/cookies-page.tsx'),
  'CookiesPage',
);

const CardEntryPage = lazyComponent(
  () => import('../features/card-entry/pages/card-entry-page.tsx'),
  'CardEntryPage',
);

const notBuilt = (path: string, title: string): RouteObject => ({
  path,
  element: <NotBuiltYet title={title} />,
});

/** Sign-in screens under /auth (inside AuthLayout). /auth/logout is the server's. */
export const authRoutes: RouteObject[] = [
  { path: 'login', element: <LoginPage /> },
  { path: 'signup', element: <SignupPage /> },
  { path: 'forgot-password', element: <ForgotPasswordPage /> },
  { path: 'reset-password', element: <ResetPasswordPage /> },
  { path: 'login-with-google', element: <GoogleLoginPage /> },
];

/**
 * spec §2 /auth/kiosk-mode: a full-screen front-desk clock of its own, outside AuthLayout. A
 * shared wall tablet is offered no install of the customer app: the offer would sit over the
 * kiosk's own buttons (Leave kiosk mode among them) for whoever walks by.
 */
export const kioskRoute: RouteObject = {
  path: 'auth/kiosk-mode',
  element: <KioskModePage />,
  handle: { installOffer: false } satisfies RouteHandle,
};

/**
 * Stripe's card entry (decision 0063): framed by the card forms, always a full page load from
 * the server (outside-services.rules.ts). Outside every layout: no banners, no navigation —
 * nothing but the card inside the frame.
 */
export const cardEntryRoute: RouteObject = {
  path: cardEntryPath.slice(1),
  element: (
    <Suspense fallback={null}>
      <CardEntryPage />
    </Suspense>
  ),
};

/** Sidebar entries with a page of their own; the rest are placeholders until their issue. */
const sidebarPages: Partial<Record<string, ReactNode>> = {
  '/dashboard/sites': <SitesPage />,
  '/dashboard/time-tracking': <TimeTrackingPage />,
  '/dashboard/crm': <Crm />,
  '/dashboard/organization-management': <OrganizationManagementPage />,
  '/dashboard/packages': <PackagesPage />,
  '/dashboard/pos': <PointOfSale />,
  '/dashboard/calendar': <Calendar />,
};

/** Every sidebar entry is a page, gated like its link (claims, Jobber). spec §2, §6. */
const sidebarRoutes: RouteObject[] = allNavItems.map((item) => ({
  path: item.path.slice(1),
  element: (
    <RequireNavAccess navPath={item.path} title={item.label}>
      {sidebarPages[item.path] ?? <NotBuiltYet title={item.label} />}
    </RequireNavAccess>
  ),
}));

/** spec §2 Organisation dashboard (and the customer pages that live under /dashboard). */
export const dashboardRoutes: RouteObject[] = [
  { path: 'dashboard', element: <DashboardHomePage /> },
  { path: 'admin', element: <AdminPage /> },
  ...sidebarRoutes,
  { path: 'dashboard/sites/create', element: <SitesCreatePage /> },
  { path: 'dashboard/sms/:tab', element: <SmsPage /> },
  {
    path: 'dashboard/crm/redirect',
    element: (
      <RequireNavAccess navPath="/dashboard/crm" title="Customer profile">
        <CrmRedirect />
      </RequireNavAccess>
    ),
  },
  {
    path: 'dashboard/crm/import',
    element: (
      <RequireNavAccess navPath="/dashboard/crm" title="Import from a spreadsheet">
        <ImportPage />
      </RequireNavAccess>
    ),
  },
  {
    path: 'dashboard/crm/lists',
    element: (
      <RequireNavAccess navPath="/dashboard/crm" title="Contact lists">
        <ContactListsPage />
      </RequireNavAccess>
    ),
  },
  {
    path: 'dashboard/crm/customers/:rosterId',
    element: (
      <RequireNavAccess navPath="/dashboard/crm" title="Customer profile">
        <CrmCustomerProfile />
      </RequireNavAccess>
    ),
  },
  // "Subscription & Billing" in the user menu: the organisation's customers' subscriptions and
  // which processor takes its cards (issue 15; the page checks its claims).
  { path: 'dashboard/org-subscription', element: <SubscriptionsPage /> },
  { path: 'dashboard/settings', element: <Settings /> },
  { path: 'dashboard/customer-purchase', element: <CustomerPurchasePage /> },
  { path: 'dashboard/*', element: <NotFoundPage /> },
];

/** spec §2 Customer dashboard; with {orgId}, the branded customer app. */
export const customerRoutes: RouteObject[] = [
  { path: 'dashboard-customer', element: <CustomerHomePage /> },
  { path: 'dashboard-customer/my-calendar', element: <MyCalendarPage /> },
  { path: 'dashboard-customer/shop', element: <ShopPage /> },
  { path: 'dashboard-customer/purchase-history', element: <PurchaseHistoryPage /> },
  { path: 'dashboard-customer/:orgId', element: <CustomerHomePage /> },
  { path: 'dashboard-customer/:orgId/my-calendar', element: <MyCalendarPage /> },
  { path: 'dashboard-customer/:orgId/shop', element: <ShopPage /> },
  { path: 'dashboard-customer/:orgId/purchase-history', element: <PurchaseHistoryPage /> },
  { path: 'dashboard-customer/:orgId/settings', element: <Settings /> },
  // An emailed invitation to a product opens here (issue 15).
  { path: 'dashboard-customer/:orgId/invites/:inviteId', element: <AcceptInvitePage /> },
  { path: 'dashboard-customer/:orgId/*', element: <NotFoundPage /> },
];

/** spec §2 Other routes and the documents signup links to; open to visitors. */
export const publicRoutes: RouteObject[] = [
  { path: 'documents/terms-of-service', element: <TermsOfServicePage /> },
  { path: 'documents/waiver-of-liability', element: <WaiverOfLiabilityPage /> },
  { path: 'documents/cookies', element: <CookiesPage /> },
  // An emailed team invitation opens here, signed in or not (issue 14).
  { path: 'join-team', element: <JoinTeamPage /> },
  notBuilt('website-builder', 'Website builder'),
  notBuilt('request-a-domain', 'Request a domain'),
  notBuilt('request-a-free-website-draft', 'Request a free website draft'),
  { path: '*', element: <NotFoundPage /> },
];
