/**
 * "Export a caller's data" (issue 38, subject access): every call of one phone number, with its
 * transcript and what the agent collected, downloaded as a JSON file to send to the caller.
 */
import { FileJson } from 'lucide-react';
import { useState } from 'react';
import { PRIVACY_TEXTS } from '../../../contract/privacy';
import { serverFieldErrors } from '../../lib/api';
import { failureToast } from '../../lib/failure-toast';
import { toast } from '../../lib/use-toast';
import { PendingButton } from '../pending-button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { FieldShell } from '../form-fields';
import { Input } from '../ui/input';
import type { PrivacyApi } from './privacy-api';
import { useSubjectExport } from './privacy-queries';

export function SubjectExportCard({ api, idPrefix = 'privacy' }: { api: PrivacyApi; idPrefix?: string }) {
  const exportData = useSubjectExport(api);
  const [phone, setPhone] = useState('');
  const [error, setError] = useState<string | null>(null);
  const id = `${idPrefix}-export-phone`;

  function submit() {
    if (!/\d/.test(phone)) return setError('Enter the caller’s phone number');
    exportData.mutate(phone.trim(), {
      onSuccess: (name) => toast({ title: 'Export downloaded', description: name }),
      onError: (failure) => {
        const message = serverFieldErrors(failure).phone;
        if (message) setError(message);
        else failureToast('Export failed', failure, 'The caller’s data could not be exported.');
      },
    });
  }

  return (
    <Card data-testid="subject-export-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <FileJson className="size-4" aria-hidden="true" />
          <h2>{PRIVACY_TEXTS.exportHeading}</h2>
        </CardTitle>
        <CardDescription>
          Every call from or to one phone number, with its transcript, summary and what the agent collected,
          as a JSON file for a caller who asks what is kept about them.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form
          className="flex flex-col gap-2 sm:flex-row sm:items-start"
          aria-label={PRIVACY_TEXTS.exportHeading}
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <FieldShell id={id} label="Caller’s phone number" error={error ?? undefined} className="flex-1">
            <Input
              id={id}
              type="tel"
              value={phone}
              autoComplete="off"
              placeholder="+1 212 555 0199"
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
              onChange={(e) => {
                setPhone(e.target.value);
                setError(null);
              }}
            />
          </FieldShell>
          <PendingButton
            type="submit"
            variant="outline"
            className="sm:mt-[1.375rem]"
            pending={exportData.isPending}
            pendingLabel="Preparing..."
            icon={<FileJson aria-hidden="true" />}
          >
            Download (JSON)
          </PendingButton>
        </form>
      </CardContent>
    </Card>
  );
}
