/** SPEC §4: the API key status as a badge ("Active", "Invalid Key", "Non Active", "Unknown"). */
import { apiKeyStatusLabel } from '../../../contract/admin';
import { Badge } from '../../components/ui/badge';
import { cn } from '../../lib/utils';

export function ApiKeyStatusBadge({
  status,
  className,
}: {
  status: string | null | undefined;
  className?: string;
}) {
  const label = apiKeyStatusLabel(status);
  return (
    <Badge
      variant={status === 'valid' ? 'default' : status === 'invalid' ? 'destructive' : 'secondary'}
      className={cn(status === 'valid' && 'bg-success text-white', className)}
    >
      {label}
    </Badge>
  );
}

export function AccountStatusBadge({ isActive }: { isActive: boolean }) {
  return isActive ? null : (
    <Badge variant="outline" className="text-muted-foreground">
      Deactivated
    </Badge>
  );
}
