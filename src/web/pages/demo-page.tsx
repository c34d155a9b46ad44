/** /demo and /demo-dashboard: the public demo, no login. */
import { PageLoading } from '../components/page-loading';
import { DEMO_CALL_SOURCE } from '../features/calls/call-source';
import { useFirstScreen } from '../features/calls/first-screen';
import { DemoDashboard, DemoHeader } from '../features/demo/demo-dashboard';
import { usePageTitle } from '../lib/use-page-title';

export default function DemoPage() {
  usePageTitle('Demo');
  // The first screen in one read (issue 41); the workspace's queries find its parts cached. The
  // header reads nothing, so it shows at once (the demo may bring its calls up to date first).
  const firstScreen = useFirstScreen(DEMO_CALL_SOURCE);
  if (firstScreen.settled) return <DemoDashboard />;
  return (
    <div className="min-h-screen bg-background">
      <DemoHeader />
      <PageLoading />
    </div>
  );
}
