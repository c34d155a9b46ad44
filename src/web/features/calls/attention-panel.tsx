/**
 * "Needs attention": the calls a person should look at, newest first, each with why,
 * a button to open it and one to mark it handled. "Show all in the call log" filters the log.
 */
import { Check, CheckCircle2 } from 'lucide-react';
import { forwardRef } from 'react';
import { formatCallCreated } from '../../../contract/format';
import { QueryView } from '../../components/query-view';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';
import type { CallSource } from './call-source';
import { useMarkHandled } from './mutations';
import { formatPhone } from './phone';
import { useAttention } from './queries';

/** How many open calls the panel lists; the rest are a click away in the filtered log. */
export const ATTENTION_SHOWN = 5;

export interface AttentionPanelProps {
  source: CallSource;
  onOpenCall: (callId: string) => void;
  onShowAll: () => void;
}

export const AttentionPanel = forwardRef<HTMLDivElement, AttentionPanelProps>(function AttentionPanel(
  { source, onOpenCall, onShowAll },
  ref,
) {
  const query = useAttention(source, ATTENTION_SHOWN);
  const handled = useMarkHandled(source);
  return (
    <Card
      ref={ref}
      tabIndex={-1}
      className="gap-3 outline-none"
      data-testid="attention-panel"
      aria-labelledby="attention-title"
    >
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2">
        <CardTitle id="attention-title" className="text-lg">
          Needs attention
          {query.data && query.data.total > 0 && (
            <span
              className="ml-2 rounded-full bg-orange-100 px-2 py-0.5 align-middle font-semibold text-orange-800 text-sm tabular-nums"
              data-testid="attention-total"
            >
              {query.data.total.toLocaleString('en-US')}
            </span>
          )}
        </CardTitle>
        {query.data && query.data.total > 0 && (
          <Button variant="outline" size="sm" onClick={onShowAll}>
            Show all in the call log
          </Button>
        )}
      </CardHeader>
      <CardContent>
        <QueryView
          query={query}
          what="the calls that need attention"
          loading={<Skeleton className="h-24 w-full" />}
          isEmpty={(list) => !list || list.total === 0}
          empty={
            <p className="flex items-center gap-2 text-muted-foreground text-sm">
              <CheckCircle2 className="size-4 text-green-700" aria-hidden="true" /> Nothing needs a person
              right now.
            </p>
          }
        >
          {(list) => (
            <ul className="flex flex-col divide-y">
              {list.calls.map((call) => (
                <li
                  key={call.id}
                  className="flex flex-col gap-2 py-2 sm:flex-row sm:items-center sm:justify-between"
                  data-testid="attention-call"
                >
                  <div className="min-w-0">
                    <p className="font-medium text-sm">
                      {formatPhone(call.fromNumber)} → {formatPhone(call.toNumber)}{' '}
                      <span className="font-normal text-muted-foreground">
                        · {formatCallCreated(call.createdAt)}
                      </span>
                    </p>
                    <p className="text-orange-800 text-sm">{call.attentionReasons.join(' · ')}</p>
                  </div>
                  <div className="flex shrink-0 gap-2">
                    <Button variant="outline" size="sm" onClick={() => onOpenCall(call.id)}>
                      Open
                    </Button>
                    {source.handledUrl && (
                      <Button
                        size="sm"
                        variant="secondary"
                        disabled={handled.isPending && handled.variables === call.id}
                        onClick={() => handled.mutate(call.id)}
                      >
                        <Check aria-hidden="true" /> Mark handled
                      </Button>
                    )}
                  </div>
                </li>
              ))}
            </ul>
          )}
        </QueryView>
      </CardContent>
    </Card>
  );
});
