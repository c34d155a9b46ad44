/**
 * Settings › Activity (Owners): what the account's people did, and every agency view of
 * the dashboard, newest first. Filter by person and action; a table on wide screens and a list on
 * phones; "Download CSV" takes the same filters (a plain link, so the browser streams the file).
 */
import { FileDown } from 'lucide-react';
import { useState } from 'react';
import { ACTIVITY_ACTION_LABELS, ACTIVITY_ACTIONS, type ActivityItem } from '../../../contract/activity';
import { describeActivityDetail } from '../../../contract/activity-detail';
import { formatCallCreated } from '../../../contract/format';
import { NativeSelect } from '../../components/native-select';
import { QueryView } from '../../components/query-view';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Label } from '../../components/ui/label';
import { Skeleton } from '../../components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../components/ui/table';
import { CallPagination } from '../calls/call-pagination';
import { type ActivityFilters, activityParams, useActivity, useActivityPeople } from './activity-queries';

const personOf = (item: ActivityItem) => item.userName ?? 'Someone not signed in';

export function ActivityTab() {
  const [filters, setFilters] = useState<ActivityFilters>({ userId: '', action: '', page: 1 });
  const activity = useActivity(filters);
  const people = useActivityPeople();
  const csvParams = activityParams(filters).toString();
  const csvHref = `/api/client/activity/export${csvParams ? `?${csvParams}` : ''}`;

  return (
    <Card>
      <CardHeader>
        <CardTitle>Activity</CardTitle>
        <CardDescription>
          Sign-ins, invitations, role changes, exports, recordings played, numbers shown, settings changed and
          every agency view of your dashboard, kept for a year.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="grid items-end gap-3 sm:grid-cols-[1fr_1fr_auto]">
          <div className="grid gap-1.5">
            <Label htmlFor="activity-person">Person</Label>
            <NativeSelect
              id="activity-person"
              value={filters.userId}
              onChange={(e) => setFilters((f) => ({ ...f, userId: e.target.value, page: 1 }))}
            >
              <option value="">Everyone</option>
              {(people.data ?? []).map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name || p.email}
                </option>
              ))}
            </NativeSelect>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="activity-action">Action</Label>
            <NativeSelect
              id="activity-action"
              value={filters.action}
              onChange={(e) =>
                setFilters((f) => ({
                  ...f,
                  // The select's options are ActivityFilters['action'] values
                  action: e.target.value as ActivityFilters['action'],
                  page: 1,
                }))
              }
            >
              <option value="">All actions</option>
              {ACTIVITY_ACTIONS.map((a) => (
                <option key={a} value={a}>
                  {ACTIVITY_ACTION_LABELS[a]}
                </option>
              ))}
            </NativeSelect>
          </div>
          <Button variant="outline" asChild>
            <a href={csvHref} download data-testid="activity-csv">
              <FileDown aria-hidden="true" />
              Download CSV
            </a>
          </Button>
        </div>
        <QueryView
          query={activity}
          what="the activity log"
          loading={<Skeleton className="h-32 w-full" />}
          empty={
            <p className="py-4 text-center text-muted-foreground text-sm">
              Nothing recorded for these filters.
            </p>
          }
          isEmpty={(data) => !data || data.items.length === 0}
        >
          {(data) => (
            <>
              <div className="hidden md:block">
                <Table aria-label="Activity" scrollLabel="Activity, scrollable">
                  <TableHeader>
                    <TableRow>
                      <TableHead>When</TableHead>
                      <TableHead>Person</TableHead>
                      <TableHead>Action</TableHead>
                      <TableHead>Details</TableHead>
                    </TableRow>
                  </TableHeader>
                  <TableBody>
                    {data.items.map((item, i) => (
                      <TableRow key={`${item.at}-${i}`} data-testid="activity-row">
                        <TableCell className="whitespace-nowrap">{formatCallCreated(item.at)}</TableCell>
                        <TableCell className="whitespace-nowrap">{personOf(item)}</TableCell>
                        <TableCell className="whitespace-nowrap">
                          {ACTIVITY_ACTION_LABELS[item.action]}
                        </TableCell>
                        <TableCell className="min-w-48 text-muted-foreground text-xs">
                          {describeActivityDetail(item)}
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </div>
              <ul className="divide-y rounded-md border md:hidden" aria-label="Activity">
                {data.items.map((item, i) => (
                  <li key={`${item.at}-${i}`} className="grid gap-0.5 p-3" data-testid="activity-item">
                    <p className="font-medium text-sm">
                      {personOf(item)} · {ACTIVITY_ACTION_LABELS[item.action]}
                    </p>
                    <p className="text-muted-foreground text-xs">{formatCallCreated(item.at)}</p>
                    {describeActivityDetail(item) && (
                      <p className="break-words text-muted-foreground text-xs">
                        {describeActivityDetail(item)}
                      </p>
                    )}
                  </li>
                ))}
              </ul>
            </>
          )}
        </QueryView>
        <CallPagination
          pagination={activity.data?.pagination}
          onPageChange={(page) => setFilters((f) => ({ ...f, page }))}
        />
      </CardContent>
    </Card>
  );
}
