/**
 * The client dashboard's header (SPEC §2): company name or "Dashboard", the subtitle, the
 * client's e-mail, sample data / sync / search icon buttons, Settings and logout.
 */
import { Database, DatabaseZap, Filter, LogOut, RefreshCw, Settings } from 'lucide-react';
import { Link } from 'wouter';
import type { ClientSession } from '../../../contract/auth';
import { Button } from '../../components/ui/button';
import { useLogout } from '../../lib/session';
import { cn } from '../../lib/utils';
import { useRemoveSampleCalls, useSeedSampleCalls, useSyncCalls } from '../calls/mutations';
import { useSampleData } from '../calls/queries';

export interface DashboardHeaderProps {
  client: ClientSession;
  searchOpen: boolean;
  onToggleSearch: () => void;
}

export function DashboardHeader({ client, searchOpen, onToggleSearch }: DashboardHeaderProps) {
  const sync = useSyncCalls();
  const seed = useSeedSampleCalls();
  const removeSamples = useRemoveSampleCalls();
  // Sample data is for trying the dashboard: offered only before the first real call.
  const samples = useSampleData().data;
  const canSeed = !!samples && !samples.hasRealCalls && samples.sampleCalls === 0;
  const logout = useLogout();
  return (
    <header className="border-b bg-card">
      <div className="mx-auto flex max-w-7xl flex-col gap-4 px-4 py-4 sm:px-6 md:flex-row md:items-center md:justify-between lg:px-8">
        <div className="min-w-0">
          <h1 className="truncate font-bold text-2xl">{client.companyName || 'Dashboard'}</h1>
          <p className="text-muted-foreground text-sm">
            Monitor your AI voice agent performance and call metrics
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <span className="mr-1 max-w-full truncate text-muted-foreground text-sm" data-testid="client-email">
            {client.email}
          </span>
          {canSeed && (
            <Button
              variant="outline"
              size="icon"
              aria-label="Add sample data"
              title="Add sample data"
              disabled={seed.isPending}
              onClick={() => seed.mutate()}
            >
              <Database />
            </Button>
          )}
          {!!samples?.sampleCalls && (
            <Button
              variant="outline"
              title="Remove sample data"
              disabled={removeSamples.isPending}
              onClick={() => removeSamples.mutate()}
            >
              <DatabaseZap aria-hidden="true" />
              Remove sample data
            </Button>
          )}
          <Button
            variant="outline"
            size="icon"
            aria-label="Sync calls from Bland AI"
            title="Sync calls from Bland AI"
            disabled={sync.isPending}
            onClick={() => sync.mutate()}
          >
            <RefreshCw className={cn(sync.isPending && 'animate-spin')} />
          </Button>
          <Button
            variant={searchOpen ? 'secondary' : 'outline'}
            size="icon"
            aria-label="Search calls"
            aria-pressed={searchOpen}
            title="Search calls"
            onClick={onToggleSearch}
          >
            <Filter />
          </Button>
          <Button variant="outline" asChild>
            <Link href="/settings">
              <Settings aria-hidden="true" />
              Settings
            </Link>
          </Button>
          <Button variant="outline" onClick={() => logout.mutate()} disabled={logout.isPending}>
            <LogOut aria-hidden="true" />
            Logout
          </Button>
        </div>
      </div>
    </header>
  );
}
