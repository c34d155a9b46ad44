/** The admin dashboard's four stat cards (SPEC §2): total clients, total calls, total revenue, active clients. */
import { DollarSign, Phone, UserCheck, Users } from 'lucide-react';
import type { ReactNode } from 'react';
import { formatCount, formatMoney } from '../../../contract/format';
import { Card, CardContent } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';
import { useAdminStats } from './queries';

export function AdminStatsCards() {
  const stats = useAdminStats();
  const value = (text: (s: NonNullable<typeof stats.data>) => string) =>
    stats.isPending ? null : stats.data ? text(stats.data) : '—';
  return (
    <section aria-label="Admin statistics" className="grid grid-cols-2 gap-3 lg:grid-cols-4 lg:gap-4">
      <StatCard label="Total Clients" icon={<Users />} value={value((s) => formatCount(s.totalClients))} />
      <StatCard label="Total Calls" icon={<Phone />} value={value((s) => formatCount(s.totalCalls))} />
      <StatCard
        label="Total Revenue"
        icon={<DollarSign />}
        value={value((s) => formatMoney(s.totalRevenue))}
      />
      <StatCard
        label="Active Clients"
        icon={<UserCheck />}
        value={value((s) => formatCount(s.activeClients))}
      />
    </section>
  );
}

function StatCard({ label, icon, value }: { label: string; icon: ReactNode; value: string | null }) {
  return (
    <Card className="gap-2 py-4">
      <CardContent className="flex items-start justify-between gap-2 px-4">
        <div className="min-w-0">
          <p className="text-muted-foreground text-xs sm:text-sm">{label}</p>
          {value === null ? (
            <Skeleton className="mt-2 h-7 w-16" />
          ) : (
            <p
              className="mt-1 truncate font-bold text-xl sm:text-2xl"
              data-testid={`stat-${label.toLowerCase().replace(/ /g, '-')}`}
            >
              {value}
            </p>
          )}
        </div>
        <span className="rounded-md bg-primary/10 p-2 text-primary-text [&_svg]:size-4 sm:[&_svg]:size-5">
          {icon}
        </span>
      </CardContent>
    </Card>
  );
}
