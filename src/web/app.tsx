/**
 * Routes (SPEC §2) and app-wide providers. Every page is its own lazy chunk, so the landing and
 * login pages never download charts or payment code.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { type ComponentType, type LazyExoticComponent, lazy, Suspense, useEffect } from 'react';
import { Route, Switch, useLocation } from 'wouter';
import { AppErrorBoundary } from './components/app-error-boundary';
import { PageLoading } from './components/page-loading';
import { Toaster } from './components/ui/toaster';
import { BrandTheme } from './lib/brand';
import { queryClient } from './lib/query-client';

const LandingPage = lazy(() => import('./pages/landing-page'));
const ClientLoginPage = lazy(() => import('./pages/client-login-page'));
const DashboardPage = lazy(() => import('./pages/dashboard-page'));
const SettingsPage = lazy(() => import('./pages/settings-page'));
const CheckoutPage = lazy(() => import('./pages/checkout-page'));
const DemoPage = lazy(() => import('./pages/demo-page'));
const AdminLoginPage = lazy(() => import('./pages/admin-login-page'));
const AdminPage = lazy(() => import('./pages/admin-page'));
const AdminClientPage = lazy(() => import('./pages/admin-client-page'));
const AcceptInvitePage = lazy(() => import('./pages/accept-invite-page'));
const ChoosePasswordPage = lazy(() => import('./pages/choose-password-page'));
const NotFoundPage = lazy(() => import('./pages/not-found-page'));

const ROUTES: Array<[path: string, page: LazyExoticComponent<ComponentType>]> = [
  ['/', LandingPage],
  ['/client-login', ClientLoginPage],
  // Public: an invited person (or an agency's password reset) sets a password here.
  ['/accept-invite', AcceptInvitePage],
  // A first sign-in with the agency's password: nothing else answers until the person picks theirs.
  ['/choose-password', ChoosePasswordPage],
  ['/dashboard', DashboardPage],
  ['/settings', SettingsPage],
  ['/checkout', CheckoutPage],
  ['/demo', DemoPage],
  ['/demo-dashboard', DemoPage],
  ['/admin-login', AdminLoginPage],
  ['/admin', AdminPage],
  // Without an id the page says "Invalid Client Access" (SPEC §2), not the 404 page.
  ['/admin/client/:clientId?', AdminClientPage],
];

export function AppRoutes() {
  return (
    <Suspense fallback={<PageLoading delayed />}>
      <Switch>
        {ROUTES.map(([path, Page]) => (
          <Route key={path} path={path} component={Page} />
        ))}
        <Route component={NotFoundPage} />
      </Switch>
    </Suspense>
  );
}

export function App() {
  const [location] = useLocation();
  // A new page starts at its top, as it would with full page loads.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every location change by design
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [location]);

  return (
    <QueryClientProvider client={queryClient}>
      <BrandTheme />
      <AppErrorBoundary resetKey={location}>
        <AppRoutes />
      </AppErrorBoundary>
      <Toaster />
    </QueryClientProvider>
  );
}
