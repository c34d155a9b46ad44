/**
 * The client dashboard (SPEC §2): its header and payment banner around the calls
 * workspace, with the search opened from the header and the filters at the top. What the
 * signed-in user's role lacks is not offered: billing banner, report, export, delete.
 */

import { useMemo } from 'react';
import type { ClientSession } from '../../../contract/auth';
import { can, useSessionUser } from '../../lib/permissions';
import { clientCallSourceFor } from '../calls/call-source';
import { CallsWorkspace } from '../calls/calls-workspace';
import { DashboardHeader } from './dashboard-header';
import { MonthlyReportDownload } from './monthly-report-download';
import { PaymentActionBanner } from './payment-action-banner';

/** The SPEC's empty text points at the sync button; a user whose role has none is told what to expect. */
const EMPTY_CALLS_TEXT_WITHOUT_SYNC =
  'No call logs found. Calls appear here as they arrive; someone who manages calls can also sync them.';

export function ClientDashboard({ client }: { client: ClientSession }) {
  const user = useSessionUser();
  // A new source only when the permissions change (the workspace's queries key on source.key).
  const permissions = user?.permissions.join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: rebuilt from the permissions' value, not the user object's identity
  const source = useMemo(() => clientCallSourceFor(user), [permissions]);
  return (
    <CallsWorkspace
      source={source}
      header={(workspace) => (
        <DashboardHeader
          client={client}
          searchOpen={workspace.searchOpen}
          onToggleSearch={workspace.toggleSearch}
          onShowAttention={workspace.showAttention}
        />
      )}
      banners={can(user, 'billing') ? <PaymentActionBanner /> : undefined}
      headingActions={can(user, 'reports') ? <MonthlyReportDownload /> : undefined}
      search="toggle"
      filtersAt="top"
      timeZone={client.timezone}
      emptyText={user && !can(user, 'calls.manage') ? EMPTY_CALLS_TEXT_WITHOUT_SYNC : undefined}
    />
  );
}
