/**
 * "Export a caller's data" (subject access): every call of one phone number, with its
 * transcript and what the agent collected, downloaded to send to the caller: a readable PDF, a
 * CSV for a spreadsheet, or the whole record as JSON.
 */
import { FileJson } from 'lucide-react';
import { useState } from 'react';
import { PRIVACY_TEXTS, type SubjectExportFormat } from '../../../contract/privacy';
import { serverFieldErrors } from '../../lib/api';
import { failureToast } from '../../lib/failure-toast';
import { toast } from '../../lib/use-toast';
import { FieldShell } from '../form-fields';
import { PendingButton } from '../pending-button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { Input } from '../ui/input';
import type { PrivacyApi } from './privacy-api';
import { useSubjectExport } from './privacy-queries';

const EXPORT_BUTTONS: { format: SubjectExportFormat; label: string }[] = [
  { format: 'pdf', label: 'Download (PDF)' },
  { format: 'csv', label: 'Download (CSV)' },
  { format: 'json', label: 'Download (JSON)' },
];

export function SubjectExportCard({ api, idPrefix = 'privacy' }: { api: PrivacyApi; idPrefix?: string }) {
  const exportData = useSubjectExport(api);
  const [phone, setPhone] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [asked, setAsked] = useState<SubjectExportFormat>('pdf');
  const id = `${idPrefix}-export-phone`;

  function submit(format: SubjectExportFormat) {
    if (!/\d/.test(phone)) return setError('Enter the caller’s phone number');
    setAsked(format);
    exportData.mutate(
      { phone: phone.trim(), format },
      {
        onSuccess: (name) => toast({ title: 'Export downloaded', description: name }),
        onError: (failure) => {
          const message = serverFieldErrors(failure).phone;
          if (message) setError(message);
          else failureToast('Export failed', failure, 'The caller’s data could not be exported.');
        },
      },
    );
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
          for a caller who asks what is kept about them: a readable PDF, a CSV for a spreadsheet, or the whole
          record as JSON.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form
          className="flex flex-col gap-2 sm:flex-row sm:items-start"
          aria-label={PRIVACY_TEXTS.exportHeading}
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            submit('pdf');
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
          <div className="flex flex-wrap gap-2 sm:mt-[1.375rem]">
            {EXPORT_BUTTONS.map(({ format, label }) => (
              <PendingButton
                key={format}
                type={format === 'pdf' ? 'submit' : 'button'}
                variant="outline"
                pending={exportData.isPending && asked === format}
                disabled={exportData.isPending}
                pendingLabel="Preparing..."
                icon={<FileJson aria-hidden="true" />}
                onClick={format === 'pdf' ? undefined : () => submit(format)}
              >
                {label}
              </PendingButton>
            ))}
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
