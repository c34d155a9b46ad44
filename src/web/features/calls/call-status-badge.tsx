/** Status badge styles of SPEC §4: completed default, failed destructive, transferred secondary, active outline. */
import { Badge } from '../../components/ui/badge';

type Variant = 'default' | 'destructive' | 'secondary' | 'outline';

const VARIANTS: Record<string, Variant> = {
  completed: 'default',
  failed: 'destructive',
  transferred: 'secondary',
  active: 'outline',
};

export function CallStatusBadge({ status }: { status: string }) {
  const variant = VARIANTS[status];
  if (!variant) {
    return (
      <Badge variant="outline" className="text-muted-foreground">
        unknown
      </Badge>
    );
  }
  // A call in progress is outlined in the brand's text shade; "completed" is already the brand's fill.
  return (
    <Badge
      variant={variant}
      className={status === 'active' ? 'border-primary-text text-primary-text' : undefined}
    >
      {status}
    </Badge>
  );
}
