/**
 * The period's worst calls: the slowest answers, the most interruptions and the longest
 * dead air, each opening the call drawer at the moment it happened.
 */
import { PanelRightOpen } from 'lucide-react';
import { formatCallCreated } from '../../../../contract/format';
import type { WorstCall } from '../../../../contract/quality';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { worstGroups } from './quality-summary-rows';

export interface QualityWorstCallsProps {
  worst: readonly WorstCall[];
  onOpenCall: (callId: string, seconds: number | null) => void;
  timeZone?: string;
}

export function QualityWorstCalls({ worst, onOpenCall, timeZone }: QualityWorstCallsProps) {
  return (
    <Card className="gap-4" data-testid="quality-worst">
      <CardHeader>
        <CardTitle>
          <h3>Calls to listen to</h3>
        </CardTitle>
        <CardDescription>
          The period’s worst calls on each figure; each opens where it happened.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6 lg:grid-cols-3">
        {worstGroups(worst).map((group) => {
          const id = `quality-worst-${group.metric}`;
          return (
            <section key={group.metric} aria-labelledby={id} className="grid content-start gap-2">
              <h4 id={id} className="font-medium text-sm">
                {group.title}
              </h4>
              {group.rows.length === 0 ? (
                <p className="text-muted-foreground text-sm">No call stands out.</p>
              ) : (
                <ol className="flex flex-col divide-y" data-testid={id}>
                  {group.rows.map((row) => {
                    const when = formatCallCreated(row.createdAt, timeZone);
                    return (
                      <li
                        key={row.callId}
                        className="flex items-center justify-between gap-2 py-2"
                        data-testid="quality-worst-call"
                        data-call-id={row.callId}
                      >
                        <div className="min-w-0">
                          <p className="font-medium text-sm tabular-nums">{row.value}</p>
                          <p className="truncate text-muted-foreground text-xs">{when}</p>
                        </div>
                        <Button
                          variant="outline"
                          size="sm"
                          className="shrink-0"
                          onClick={() => onOpenCall(row.callId, row.seconds)}
                        >
                          <PanelRightOpen aria-hidden="true" />
                          {row.at ? `Open at ${row.at}` : 'Open'}
                          <span className="sr-only"> the call of {when}</span>
                        </Button>
                      </li>
                    );
                  })}
                </ol>
              )}
            </section>
          );
        })}
      </CardContent>
    </Card>
  );
}
