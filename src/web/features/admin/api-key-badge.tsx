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
  return isActive ? (
    <Badge variant="outline" className="border-green-700 text-green-700">
      Active
    </Badge>
  ) : (
    <Badge variant="outline" className="text-muted-foreground">
      Deactivated
    </Badge>
  );
}

/**
 * The admin list's status: the account (may the client sign in?) and the voice provider key
 * (SPEC's status badge), each with its own label, so "Active" is never ambiguous.
 */
export function ClientStatusPair({
  isActive,
  apiKeyStatus,
}: {
  isActive: boolean;
  apiKeyStatus: string | null;
}) {
  return (
    <dl
      className="grid grid-cols-[auto_auto] items-center justify-start gap-x-2 gap-y-1 text-xs"
      data-testid="client-status"
    >
      <dt className="text-muted-foreground">Account</dt>
      <dd data-testid="account-status">
        <AccountStatusBadge isActive={isActive} />
      </dd>
      <dt className="text-muted-foreground">API key</dt>
      <dd data-testid="api-key-status">
        <ApiKeyStatusBadge status={apiKeyStatus} />
      </dd>
    </dl>
  );
}
