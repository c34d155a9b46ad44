/** Clients at risk (Analytics tab): each with its reasons in words, a link to its dashboard and to Support Tools. */
import { AlertTriangle } from 'lucide-react';
import { Link } from 'wouter';
import { RISK_LABELS } from '../../../contract/agency';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';
import { useClientsAtRisk } from './console-queries';

export function AtRiskCard({ onSupport }: { onSupport: (clientId: string) => void }) {
  const atRisk = useClientsAtRisk();
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <AlertTriangle className="size-4 text-amber-600" aria-hidden="true" /> Clients at risk
        </CardTitle>
        <CardDescription>Last 30 days against the 30 before, and what needs a person now</CardDescription>
      </CardHeader>
      <CardContent>
        {atRisk.isPending ? (
          <Skeleton className="h-32 w-full" />
        ) : atRisk.isError ? (
          <p role="alert" className="text-destructive text-sm">
            The list could not be loaded.
          </p>
        ) : atRisk.data.length === 0 ? (
          <p className="text-muted-foreground text-sm">No client needs attention.</p>
        ) : (
          <ul className="grid max-h-96 gap-3 overflow-y-auto" aria-label="Clients at risk">
            {atRisk.data.map((client) => (
              <li key={client.clientId} className="rounded-md border p-3">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <Link
                    href={`/admin/client/${encodeURIComponent(client.clientId)}`}
                    className="font-medium underline-offset-4 hover:underline"
                  >
                    {client.name}
                  </Link>
                  <Button size="sm" variant="outline" onClick={() => onSupport(client.clientId)}>
                    Support tools
                  </Button>
                </div>
                <ul className="mt-2 grid gap-1.5">
                  {client.reasons.map((reason) => (
                    <li key={reason.code} className="text-sm">
                      <Badge variant="outline" className="mr-2">
                        {RISK_LABELS[reason.code]}
                      </Badge>
                      {reason.text}
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
