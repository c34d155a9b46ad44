/** /demo and /demo-dashboard: the public demo, no login. */
import { DEMO_CALL_SOURCE } from '../features/calls/call-source';
import { useFirstScreen } from '../features/calls/first-screen';
import { DemoDashboard } from '../features/demo/demo-dashboard';
import { FirstScreenPending } from '../lib/first-screen-pending';
import { usePageTitle } from '../lib/use-page-title';

export default function DemoPage() {
  usePageTitle('Demo');
  // The first screen in one read; the workspace's queries find its parts cached. The
  // page shows at once, its parts in their loading states (the demo may bring its calls up to
  // date first, which can take a while).
  const firstScreen = useFirstScreen(DEMO_CALL_SOURCE);
  return (
    <FirstScreenPending value={!firstScreen.settled}>
      <DemoDashboard />
    </FirstScreenPending>
  );
}
