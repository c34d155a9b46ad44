/** A call's outcome as a coloured dot and its name; "Needs attention" beside it while open. */
import { AlertCircle } from 'lucide-react';
import { Badge } from '../../components/ui/badge';

export function OutcomeBadge({ name, color }: { name: string | null; color?: string }) {
  if (!name) return <span className="text-muted-foreground">—</span>;
  return (
    <span className="inline-flex items-center gap-1.5 whitespace-nowrap" data-testid="call-outcome">
      <span
        className="size-2 shrink-0 rounded-full"
        style={{ background: color ?? '#64748b' }}
        aria-hidden="true"
      />
      {name}
    </span>
  );
}

export function AttentionBadge() {
  return (
    <Badge
      variant="outline"
      className="gap-1 border-orange-300 bg-orange-50 text-orange-800"
      data-testid="attention-badge"
    >
      <AlertCircle className="size-3" aria-hidden="true" />
      Needs attention
    </Badge>
  );
}
