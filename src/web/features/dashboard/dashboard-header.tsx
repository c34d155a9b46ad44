/**
 * The client dashboard's header (SPEC §2): company name or "Dashboard", the subtitle, the
 * client's e-mail, sample data / sync / search icon buttons, Settings and logout. On a phone one
 * compact row: the title, attention, search and a menu holding the e-mail and the rest.
 */
import {
  BellRing,
  Database,
  DatabaseZap,
  Filter,
  LogOut,
  Menu,
  RefreshCw,
  Search,
  Settings,
} from 'lucide-react';
import type { ComponentProps, ReactNode } from 'react';
import { Link } from 'wouter';
import type { ClientSession } from '../../../contract/auth';
import { ActionMenu, type ActionMenuItem } from '../../components/action-menu';
import { BrandMark } from '../../components/brand-mark';
import { Button } from '../../components/ui/button';
import { useCan } from '../../lib/permissions';
import { useShowPlatformDetails } from '../../lib/platform-details';
import { useClientSession, useLogout } from '../../lib/session';
import { useMediaQuery, WIDE_SCREEN } from '../../lib/use-media-query';
import { cn } from '../../lib/utils';
import { ATTENTION_SHOWN } from '../calls/attention-panel';
import { CLIENT_CALL_SOURCE } from '../calls/call-source';
import { useRemoveSampleCalls, useSeedSampleCalls, useSyncCalls } from '../calls/mutations';
import { useAttention, useSampleData } from '../calls/queries';
import { SyncProgressStatus } from '../calls/sync-progress-status';

export interface DashboardHeaderProps {
  client: ClientSession;
  searchOpen: boolean;
  onToggleSearch: () => void;
  /** Moves the focus to the "Needs attention" panel. */
  onShowAttention: () => void;
}

/**
 * SPEC's icon buttons: icon only where a pointer can hover (the title is the tooltip), icon and
 * visible label on touch screens, where a title never shows.
 */
function HeaderIconButton({
  label,
  icon,
  ...props
}: { label: string; icon: ReactNode } & Omit<ComponentProps<typeof Button>, 'size' | 'children'>) {
  return (
    <Button
      size="icon"
      aria-label={label}
      title={label}
      className="pointer-coarse:w-auto pointer-coarse:px-3"
      {...props}
    >
      {icon}
      <span className="hidden pointer-coarse:inline" aria-hidden="true">
        {label}
      </span>
    </Button>
  );
}

/**
 * The count of calls that need a person, as a badge; shown only while there are some. Its place
 * is kept whether or not it shows: the count arrives after the header is drawn, and a
 * button appearing then would move the buttons beside it or wrap the row and push the page down.
 */
function AttentionButton({ onClick, reserve = true }: { onClick: () => void; reserve?: boolean }) {
  // Same query (and cache entry) as the panel's list.
  const total = useAttention(CLIENT_CALL_SOURCE, ATTENTION_SHOWN).data?.total ?? 0;
  const label = `${total.toLocaleString('en-US')} ${total === 1 ? 'call needs' : 'calls need'} attention`;
  if (!reserve && total === 0) return null;
  return (
    // Outermost in its group, so its empty place is not seen as a gap.
    <span className="flex h-9 w-[5.5rem] shrink-0 max-sm:h-11" data-testid="attention-place">
      {total > 0 && (
        <Button
          variant="outline"
          className="w-full border-orange-300 text-orange-800 hover:bg-orange-50"
          title={label}
          aria-label={label}
          onClick={onClick}
          data-testid="attention-button"
        >
          <BellRing aria-hidden="true" />
          <span
            className="rounded-full bg-orange-100 px-1.5 font-semibold text-xs tabular-nums"
            aria-hidden="true"
          >
            {total > 99 ? '99+' : total}
          </span>
        </Button>
      )}
    </span>
  );
}

export function DashboardHeader({
  client,
  searchOpen,
  onToggleSearch,
  onShowAttention,
}: DashboardHeaderProps) {
  const sync = useSyncCalls();
  const showPlatform = useShowPlatformDetails();
  const seed = useSeedSampleCalls();
  const removeSamples = useRemoveSampleCalls();
  // Sample data is for trying the dashboard: offered only before the first real call.
  const samples = useSampleData().data;
  // Sync and sample data write calls: only for holders of calls.manage.
  const canManage = useCan('calls.manage');
  const canSeed = canManage && !!samples && !samples.hasRealCalls && samples.sampleCalls === 0;
  const canRemoveSamples = canManage && !!samples?.sampleCalls;
  const logout = useLogout();
  // The signed-in person's own address (a Viewer is not the account's Owner); the account's until
  // the session read after a login brings the person.
  const signedInEmail = useClientSession({ follow: true }).data?.user?.email ?? client.email;
  const syncLabel = showPlatform ? 'Sync calls from Bland AI' : 'Sync calls';
  // A phone gets one compact row, so the numbers are on its first screen: the title, the calls
  // needing attention, search, and a menu with the rest.
  const wide = useMediaQuery(WIDE_SCREEN);
  const name = (
    <>
      <BrandMark className="mb-1 md:mb-2" />
      <h1 className="truncate font-bold text-xl md:text-2xl">{client.companyName || 'Dashboard'}</h1>
    </>
  );
  const subtitle = (
    <p className="text-muted-foreground text-xs md:text-sm">
      Monitor your AI voice agent performance and call metrics
    </p>
  );
  const syncProgress = canManage && <SyncProgressStatus progress={sync.progress} testId="sync-progress" />;

  if (!wide) {
    const items: ActionMenuItem[] = [
      ...(canSeed
        ? [
            {
              label: 'Add sample data',
              icon: <Database />,
              disabled: seed.isPending,
              onSelect: () => seed.mutate(),
            },
          ]
        : []),
      ...(canRemoveSamples
        ? [
            {
              label: 'Remove sample data',
              icon: <DatabaseZap />,
              disabled: removeSamples.isPending,
              onSelect: () => removeSamples.mutate(),
            },
          ]
        : []),
      ...(canManage
        ? [{ label: syncLabel, icon: <RefreshCw />, disabled: sync.isPending, onSelect: () => sync.mutate() }]
        : []),
      { label: 'Settings', icon: <Settings />, href: '/settings' },
      { label: 'Logout', icon: <LogOut />, disabled: logout.isPending, onSelect: () => logout.mutate() },
    ];
    return (
      <header className="border-b bg-card">
        <div className="flex flex-col gap-1 px-4 py-3 sm:px-6">
          <div className="flex items-end justify-between gap-2">
            <div className="min-w-0">{name}</div>
            <div className="flex shrink-0 items-center gap-1">
              {/* Grows the row to the left, beside a title that truncates: nothing moves when it comes. */}
              <AttentionButton onClick={onShowAttention} reserve={false} />
              <Button
                variant={searchOpen ? 'secondary' : 'ghost'}
                size="icon"
                aria-label="Search calls"
                title="Search calls"
                aria-pressed={searchOpen}
                onClick={onToggleSearch}
              >
                <Search aria-hidden="true" />
              </Button>
              <ActionMenu
                label="Menu"
                trigger={
                  sync.isPending ? (
                    <RefreshCw className="animate-spin" aria-hidden="true" />
                  ) : (
                    <Menu aria-hidden="true" />
                  )
                }
                heading={<span data-testid="client-email">{signedInEmail}</span>}
                items={items}
                triggerProps={{ 'data-testid': 'header-menu' }}
              />
            </div>
          </div>
          {subtitle}
          {syncProgress}
        </div>
      </header>
    );
  }

  return (
    <header className="border-b bg-card">
      <div className="mx-auto flex max-w-7xl flex-row items-center justify-between gap-4 px-4 py-4 sm:px-6 lg:px-8">
        <div className="min-w-0">
          {name}
          {subtitle}
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <span className="mr-1 max-w-full truncate text-muted-foreground text-sm" data-testid="client-email">
            {signedInEmail}
          </span>
          {/*
           * What the first screen's read decides, drawn once it is in: first in the row,
           * where the row grows to the left and nothing beside it moves.
           */}
          <div className="flex flex-wrap items-center gap-2">
            {canSeed && (
              <HeaderIconButton
                variant="outline"
                label="Add sample data"
                icon={<Database aria-hidden="true" />}
                disabled={seed.isPending}
                onClick={() => seed.mutate()}
              />
            )}
            {canRemoveSamples && (
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
            <AttentionButton onClick={onShowAttention} />
          </div>
          {canManage && (
            <>
              <HeaderIconButton
                variant="outline"
                label={syncLabel}
                icon={<RefreshCw aria-hidden="true" className={cn(sync.isPending && 'animate-spin')} />}
                disabled={sync.isPending}
                onClick={() => sync.mutate()}
              />
              {syncProgress}
            </>
          )}
          <HeaderIconButton
            variant={searchOpen ? 'secondary' : 'outline'}
            label="Search calls"
            icon={<Filter aria-hidden="true" />}
            aria-pressed={searchOpen}
            onClick={onToggleSearch}
          />
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
