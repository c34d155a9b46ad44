/**
 * The client dashboard (SPEC §2; issue 13): its header and payment banner around the calls
 * workspace, with the search opened from the header and the filters at the top.
 */
import type { ClientSession } from '../../../contract/auth';
import { CallsWorkspace } from '../../components/calls/calls-workspace';
import { CLIENT_CALL_SOURCE } from '../calls/call-source';
import { DashboardHeader } from './dashboard-header';
import { MonthlyReportDownload } from './monthly-report-download';
import { PaymentActionBanner } from './payment-action-banner';

export function ClientDashboard({ client }: { client: ClientSession }) {
  return (
    <CallsWorkspace
      source={CLIENT_CALL_SOURCE}
      header={(workspace) => (
        <DashboardHeader
          client={client}
          searchOpen={workspace.searchOpen}
          onToggleSearch={workspace.toggleSearch}
          onShowAttention={workspace.showAttention}
        />
      )}
      banners={<PaymentActionBanner />}
      headingActions={<MonthlyReportDownload />}
      search="toggle"
      filtersAt="top"
      timeZone={client.timezone}
    />
  );
}
