/** Settings › Activity: a page of the activity log, and the people to filter it by. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ActivityActionName, ActivityPage } from '../../../contract/activity';
import type { ClientUser } from '../../../contract/teams';
import { getJson } from '../../lib/api';

export interface ActivityFilters {
  userId: string;
  action: ActivityActionName | '';
  page: number;
}

/** The filters as the query string the page and its CSV share (empty filters left out). */
export function activityParams(filters: Omit<ActivityFilters, 'page'>): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.userId) params.set('userId', filters.userId);
  if (filters.action) params.set('action', filters.action);
  return params;
}

export function useActivity(filters: ActivityFilters) {
  const params = activityParams(filters);
  params.set('page', String(filters.page));
  return useQuery({
    queryKey: ['activity', filters] as const,
    queryFn: () => getJson<ActivityPage>(`/api/client/activity?${params}`),
    placeholderData: keepPreviousData,
  });
}

/** Everyone who can appear in the log: the account's people (removed ones are in their lines). */
export function useActivityPeople() {
  return useQuery({
    queryKey: ['activity', 'people'] as const,
    queryFn: () => getJson<ClientUser[]>('/api/client/users'),
  });
}
