/**
 * A client's quality thresholds in the admin client view: closed by default so the
 * calls stay near the top; opened, the same card as the client's Settings › Outcomes, on the
 * admin's endpoints for this client. Changes are recorded in the audit log.
 */
import { ChevronDown, Gauge } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { Card, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { cn } from '../../lib/utils';
import { adminQualityThresholds } from '../calls/call-source';
import { QualityThresholdsCard } from '../calls/quality/quality-thresholds-card';

export function ClientQualityCard({ clientId }: { clientId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <section
      className="grid gap-6"
      aria-labelledby="client-quality-heading"
      data-testid="admin-client-quality"
    >
      <Card className="gap-4">
        <CardHeader className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <div className="grid gap-1.5">
            <CardTitle className="flex items-center gap-2 text-lg">
              <Gauge className="size-4" aria-hidden="true" />
              <h2 id="client-quality-heading">Conversation quality thresholds</h2>
            </CardTitle>
            <CardDescription>
              What puts this client’s calls in Needs attention for how the agent spoke. Changes are recorded
              in the audit log.
            </CardDescription>
          </div>
          <Button
            variant="outline"
            aria-expanded={open}
            aria-controls="client-quality-content"
            onClick={() => setOpen(!open)}
            className="w-full sm:w-auto"
          >
            <ChevronDown className={cn('transition-transform', open && 'rotate-180')} aria-hidden="true" />
            {open ? 'Hide quality thresholds' : 'Show quality thresholds'}
          </Button>
        </CardHeader>
      </Card>
      {open && (
        <div id="client-quality-content">
          <QualityThresholdsCard api={adminQualityThresholds(clientId)} idPrefix="client-quality" />
        </div>
      )}
    </section>
  );
}
