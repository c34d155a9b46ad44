/** /demo and /demo-dashboard: the public demo, no login. */
import { PageLoading } from '../components/page-loading';
import { DEMO_CALL_SOURCE } from '../features/calls/call-source';
import { useFirstScreen } from '../features/calls/first-screen';
import { DemoDashboard } from '../features/demo/demo-dashboard';
import { usePageTitle } from '../lib/use-page-title';

export default function DemoPage() {
  usePageTitle('Demo');
  // The first screen in one read (issue 41); the workspace's queries find its parts cached.
  const firstScreen = useFirstScreen(DEMO_CALL_SOURCE);
  return firstScreen.settled ? <DemoDashboard /> : <PageLoading />;
}
