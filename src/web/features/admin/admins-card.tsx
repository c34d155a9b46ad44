/**
 * The agency's admins (Support Tools): add one (a temporary password shown once), reset a
 * password, deactivate or reactivate. Nobody deactivates themself.
 */
import { type FormEvent, useState } from 'react';
import type { AdminCredentials } from '../../../contract/agency';
import { formatCallCreated } from '../../../contract/format';
import { CopyField } from '../../components/copy-field';
import { FieldShell } from '../../components/form-fields';
import { PendingButton } from '../../components/pending-button';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { Skeleton } from '../../components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../components/ui/table';
import { serverFieldErrors, serverMessageOf } from '../../lib/api';
import { failureToast } from '../../lib/failure-toast';
import { useAdminAction, useAdmins, useCreateAdmin, useResetAdminPassword } from './console-queries';

export function AdminsCard() {
  const admins = useAdmins();
  const create = useCreateAdmin();
  const action = useAdminAction();
  const reset = useResetAdminPassword();
  const [form, setForm] = useState({ username: '', name: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [issued, setIssued] = useState<AdminCredentials | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    setErrors({});
    create.mutate(form, {
      onSuccess: (credentials) => {
        setIssued(credentials);
        setForm({ username: '', name: '' });
      },
      onError: (error) => {
        const fields = serverFieldErrors(error);
        setErrors(
          Object.keys(fields).length > 0
            ? fields
            : { username: serverMessageOf(error, 'The admin could not be added') },
        );
      },
    });
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Admins</CardTitle>
        <CardDescription>
          Everyone who can open this console. Each change is in the audit log.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        {admins.isPending ? (
          <Skeleton className="h-24 w-full" />
        ) : admins.isError ? (
          <p role="alert" className="text-destructive text-sm">
            The admins could not be loaded.
          </p>
        ) : (
          <Table aria-label="Admins" scrollLabel="Admins, scrollable">
            <TableHeader>
              <TableRow>
                <TableHead>Name</TableHead>
                <TableHead>Username</TableHead>
                <TableHead>Status</TableHead>
                <TableHead>Last sign-in</TableHead>
                <TableHead>
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {admins.data.map((a) => (
                <TableRow key={a.id}>
                  <TableCell className="whitespace-nowrap">
                    {a.name} {a.isYou && <span className="text-muted-foreground text-xs">(you)</span>}
                  </TableCell>
                  <TableCell className="font-mono text-xs">{a.username}</TableCell>
                  <TableCell>
                    <Badge variant={a.isActive ? 'secondary' : 'outline'}>
                      {a.isActive ? 'Active' : 'Deactivated'}
                    </Badge>
                  </TableCell>
                  <TableCell className="whitespace-nowrap">
                    {a.lastLoginAt ? formatCallCreated(a.lastLoginAt) : 'Never'}
                  </TableCell>
                  <TableCell className="whitespace-nowrap text-right">
                    <div className="flex justify-end gap-2">
                      <Button
                        size="sm"
                        variant="outline"
                        disabled={reset.isPending}
                        onClick={() =>
                          reset.mutate(a.id, {
                            onSuccess: setIssued,
                            onError: (error) => failureToast('The password could not be reset', error),
                          })
                        }
                      >
                        Reset password
                      </Button>
                      {!a.isYou && (
                        <Button
                          size="sm"
                          variant={a.isActive ? 'destructive' : 'outline'}
                          disabled={action.isPending}
                          onClick={() =>
                            action.mutate(
                              { adminId: a.id, action: a.isActive ? 'deactivate' : 'activate' },
                              { onError: (error) => failureToast('The admin could not be changed', error) },
                            )
                          }
                        >
                          {a.isActive ? 'Deactivate' : 'Reactivate'}
                        </Button>
                      )}
                    </div>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}

        <form
          onSubmit={submit}
          className="grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end"
          noValidate
          aria-label="Add an admin"
        >
          <FieldShell id="new-admin-username" label="Username" error={errors.username}>
            <Input
              id="new-admin-username"
              autoComplete="off"
              value={form.username}
              onChange={(e) => setForm((f) => ({ ...f, username: e.target.value }))}
              aria-invalid={errors.username ? true : undefined}
              aria-describedby={errors.username ? 'new-admin-username-error' : undefined}
            />
          </FieldShell>
          <FieldShell id="new-admin-name" label="Full name" error={errors.name}>
            <Input
              id="new-admin-name"
              autoComplete="off"
              value={form.name}
              onChange={(e) => setForm((f) => ({ ...f, name: e.target.value }))}
              aria-invalid={errors.name ? true : undefined}
              aria-describedby={errors.name ? 'new-admin-name-error' : undefined}
            />
          </FieldShell>
          <PendingButton type="submit" pending={create.isPending} pendingLabel="Adding…">
            Add admin
          </PendingButton>
        </form>
      </CardContent>

      <Dialog open={issued !== null} onOpenChange={(open) => !open && setIssued(null)}>
        <DialogContent className="sm:max-w-md">
          <DialogHeader>
            <DialogTitle>Temporary password for {issued?.admin.name}</DialogTitle>
            <DialogDescription>
              Shown once. Hand it over in person or through a password manager; it signs in as{' '}
              <strong>{issued?.admin.username}</strong>.
            </DialogDescription>
          </DialogHeader>
          {issued && (
            <CopyField id="issued-password" label="Temporary password" value={issued.temporaryPassword} />
          )}
          <DialogFooter>
            <Button onClick={() => setIssued(null)}>Done</Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </Card>
  );
}
