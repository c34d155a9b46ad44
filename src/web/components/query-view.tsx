/**
 * The one way a card or list (the calls views, the admin client list) shows a query's loading,
 * error, empty and loaded states, so each only says what each state looks like.
 */
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Button } from './ui/button';

export interface QueryViewProps<T> {
  query: Pick<UseQueryResult<T>, 'data' | 'isPending' | 'isError' | 'refetch' | 'isFetching'>;
  loading: ReactNode;
  empty: ReactNode;
  isEmpty: (data: T | undefined) => boolean;
  /** What failed, for the error line ("the call logs"). */
  what: string;
  children: (data: T) => ReactNode;
}

export function QueryView<T>({ query, loading, empty, isEmpty, what, children }: QueryViewProps<T>) {
  if (query.isPending) return <>{loading}</>;
  if (query.isError && query.data === undefined) {
    return (
      <div
        role="alert"
        className="flex flex-col items-center gap-3 py-8 text-center text-muted-foreground text-sm"
      >
        <p>Could not load {what}.</p>
        <Button variant="outline" size="sm" onClick={() => query.refetch()} disabled={query.isFetching}>
          Try again
        </Button>
      </div>
    );
  }
  if (isEmpty(query.data)) return <>{empty}</>;
  // Past the pending and error returns the data is loaded; its type still allows undefined
  return <>{children(query.data as T)}</>;
}
