/** /demo and /demo-dashboard: the public demo, no login. */
import { DemoDashboard } from '../features/demo/demo-dashboard';
import { usePageTitle } from '../lib/use-page-title';

export default function DemoPage() {
  usePageTitle('Demo');
  return <DemoDashboard />;
}
