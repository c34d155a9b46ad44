/**
 * The "Two-factor sign-in" card: whether it is on for the person signed in, set it up
 * or turn it off; for those who may, the switch that requires it of everyone (an Owner for the
 * client's users in Settings › Security, any admin for every admin in the admin console).
 */

import { useQueryClient } from '@tanstack/react-query';
import { ShieldCheck } from 'lucide-react';
import { failureToast } from '../../lib/failure-toast';
import { toast } from '../../lib/use-toast';
import { cn } from '../../lib/utils';
import { Badge } from '../ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { Label } from '../ui/label';
import { Skeleton } from '../ui/skeleton';
import { Switch } from '../ui/switch';
import { TwoFactorDisableDialog } from './two-factor-disable-dialog';
import { type TwoFactorApi, useSetTwoFactorRequirement, useTwoFactorStatus } from './two-factor-queries';
import { TwoFactorSetupDialog } from './two-factor-setup-dialog';

interface TwoFactorCardProps {
  api: TwoFactorApi;
  /** The requirement switch's label; without it, no switch (the person may not set it). */
  requireLabel?: string;
}

export function TwoFactorCard({ api, requireLabel }: TwoFactorCardProps) {
  const status = useTwoFactorStatus(api);
  const queryClient = useQueryClient();
  const setRequirement = useSetTwoFactorRequirement(api);
  const enabled = status.data?.enabled ?? false;
  const required = status.data?.required ?? false;

  function changeRequirement(next: boolean) {
    setRequirement.mutate(
      { required: next },
      {
        onSuccess: () =>
          toast({
            title: 'Two-factor Rule Saved',
            description: next ? 'Everyone must use two-factor sign-in.' : 'Two-factor sign-in is optional.',
          }),
        onError: (error) => failureToast('Two-factor Rule Not Saved', error),
      },
    );
  }

  return (
    <Card data-testid="two-factor-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ShieldCheck className="size-4" aria-hidden="true" />
          Two-factor sign-in
        </CardTitle>
        <CardDescription>
          After your password, a 6-digit code from an authenticator app on your phone.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {status.isPending ? (
          <Skeleton className="h-9 w-64" />
        ) : status.isError ? (
          <p className="text-destructive text-sm" role="alert">
            Two-factor sign-in could not be loaded.
          </p>
        ) : (
          <>
            {required && !enabled && (
              <p
                className="rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm"
                role="alert"
              >
                Two-factor sign-in is required for your account. Set it up to continue.
              </p>
            )}
            <div className="flex flex-wrap items-center gap-3">
              <span className="text-sm">Status:</span>
              <Badge
                data-testid="two-factor-status"
                variant={enabled ? 'default' : 'secondary'}
                className={cn(enabled && 'bg-success text-white')}
              >
                {enabled ? 'On' : 'Off'}
              </Badge>
              <div className="w-full sm:ml-auto sm:w-auto">
                {enabled ? (
                  <TwoFactorDisableDialog api={api} disabled={required} />
                ) : (
                  <TwoFactorSetupDialog
                    api={api}
                    // Everything a requirement blocked can load now.
                    onDone={() => void queryClient.invalidateQueries()}
                  />
                )}
              </div>
            </div>
            {requireLabel && (
              <div className="flex items-center gap-3 border-t pt-4">
                <Switch
                  id={`${api}-require`.replace(/\W/g, '-')}
                  checked={required}
                  disabled={setRequirement.isPending || (!enabled && !required)}
                  onCheckedChange={changeRequirement}
                  aria-describedby={`${api}-require-help`.replace(/\W/g, '-')}
                />
                <div className="grid gap-0.5">
                  <Label htmlFor={`${api}-require`.replace(/\W/g, '-')}>{requireLabel}</Label>
                  <p id={`${api}-require-help`.replace(/\W/g, '-')} className="text-muted-foreground text-xs">
                    {enabled
                      ? 'Those without it can only set it up until they do.'
                      : 'Turn it on for yourself first.'}
                  </p>
                </div>
              </div>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}
