/**
 * The three dashboards' first-screen reads (dashboard-routes.ts): where each is mounted and the
 * parts it reads through other modules' endpoints. The client's and the admin's are mounted over
 * their calls views by dashboard/routes.ts, the demo's with the demo's (demo/routes.ts).
 */

import { ClientIdParam } from '../../contract/common';
import { AdminClientDashboard, ClientDashboard, DemoDashboard } from '../../contract/dashboard';
import type { CallsClient } from '../calls/read/call-log';
import type { DashboardOptions } from './dashboard-routes';

export const CLIENT_DASHBOARD_PATH = '/api/client/dashboard';
export const ADMIN_DASHBOARD_PATH = '/api/admin/clients/:clientId/dashboard';
export const DEMO_DASHBOARD_PATH = '/api/demo/dashboard';

/** The signed-in client's: its column choices, sample data, two-factor state and (with `billing`) subscription. */
export const clientDashboard: DashboardOptions<CallsClient> = {
  path: CLIENT_DASHBOARD_PATH,
  doc: {
    summary:
      'The dashboard’s first screen in one read (log, stats, charts, outcomes, attention, live, account)',
    errors: [429],
  },
  response: ClientDashboard,
  live: true,
  extras: () => ({
    preferences: { url: '/api/client/preferences' },
    sampleData: { url: '/api/client/sample-calls' },
    twoFactor: { url: '/api/client/2fa' },
    subscription: { url: '/api/client/subscription' },
  }),
};

/** The admin's view of a client: the client's header (GET /api/admin/client-data/{id}, audited there), its team and the admin's column choices. */
export const adminDashboard: DashboardOptions<CallsClient> = {
  path: ADMIN_DASHBOARD_PATH,
  doc: { summary: 'A client’s dashboard first screen in one read' },
  params: ClientIdParam,
  response: AdminClientDashboard,
  live: true,
  extras: (_, client) => ({
    client: {
      url: `/api/admin/client-data/${encodeURIComponent(client.id)}`,
      // A 200 of GET client-data, whose response schema holds a client.
      pick: (body) => (body as { client: unknown }).client,
    },
    preferences: { url: '/api/admin/preferences' },
    users: { url: `/api/admin/clients/${encodeURIComponent(client.id)}/users` },
  }),
};

/** The public demo: the calls parts only (no live strip, nobody signed in). */
export const demoDashboard: DashboardOptions<CallsClient> = {
  path: DEMO_DASHBOARD_PATH,
  doc: { summary: 'The demo’s first screen in one read' },
  response: DemoDashboard,
  live: false,
};
