/**
 * Callers' personal data in one account's settings: "Redact on arrival" (the kinds of
 * data replaced by labels, with the progress of redacting the stored calls again after one is
 * turned on) and "Keep personal data" (days, within the agency's limit). One save sends what
 * changed; the server's field errors show under their inputs. Settings › Privacy and the admin's
 * client view render it with their `PrivacyApi`.
 */
import { ShieldCheck } from 'lucide-react';
import { formatCount } from '../../../contract/format';
import { PRIVACY_TEXTS, type PrivacySettings, type ReRedaction } from '../../../contract/privacy';
import { SaveFooter } from '../save-footer';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { Skeleton } from '../ui/skeleton';
import type { PrivacyApi } from './privacy-api';
import { PrivacyDraftFields } from './privacy-draft-fields';
import { usePrivacySettings, useSavePrivacySettings } from './privacy-queries';
import { usePrivacyForm } from './use-privacy-form';

export function PersonalDataCard({ api, idPrefix = 'privacy' }: { api: PrivacyApi; idPrefix?: string }) {
  const settings = usePrivacySettings(api);
  return (
    <Card data-testid="personal-data-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ShieldCheck className="size-4" aria-hidden="true" />
          <h2>Callers’ personal data</h2>
        </CardTitle>
        <CardDescription>What is kept of what callers say, and for how long.</CardDescription>
      </CardHeader>
      <CardContent>
        {settings.data ? (
          <PersonalDataForm api={api} idPrefix={idPrefix} settings={settings.data} />
        ) : settings.isError ? (
          <p role="alert" className="text-destructive text-sm">
            The privacy settings could not be loaded.
          </p>
        ) : (
          <Skeleton className="h-64 w-full" aria-label="Loading the privacy settings" />
        )}
      </CardContent>
    </Card>
  );
}

function PersonalDataForm({
  api,
  idPrefix,
  settings,
}: {
  api: PrivacyApi;
  idPrefix: string;
  settings: PrivacySettings;
}) {
  const save = useSavePrivacySettings(api);
  const form = usePrivacyForm(settings, save, {
    unchanged: 'The privacy settings are as saved.',
    savedTitle: 'Privacy Saved',
    redactingAgain: 'Calls stored before are being redacted with the new choices.',
    applied: 'The new settings apply within a minute.',
    failedTitle: 'Privacy Not Saved',
    failedText: 'The privacy settings could not be saved.',
  });

  return (
    <form className="grid gap-6" aria-label="Callers’ personal data" noValidate onSubmit={form.onSubmit}>
      <PrivacyDraftFields
        idPrefix={idPrefix}
        draft={form.draft}
        onDraft={form.setDraft}
        errors={form.errors}
        onErrors={form.setErrors}
        limits={settings.agencyRetention}
        disabled={form.pending}
        progress={<ReRedactionProgress state={settings.reRedaction} />}
      />
      <SaveFooter type="submit" label="Save privacy settings" pending={form.pending} />
    </form>
  );
}

/** While stored calls are redacted again: how far it got (read again each second). */
export function ReRedactionProgress({ state }: { state: ReRedaction }) {
  if (state.state !== 'running') return null;
  // Until the run has counted the calls there is no "of": it is starting.
  const counted = state.total > 0;
  const percent = counted ? Math.round((state.done / state.total) * 100) : 0;
  return (
    <div className="grid gap-1.5 rounded-md border bg-muted/40 p-3" data-testid="re-redaction">
      <p className="text-sm" role="status">
        {PRIVACY_TEXTS.reRedactionRunning}:{' '}
        {counted ? `${formatCount(state.done)} of ${formatCount(state.total)}` : 'starting…'}
      </p>
      <div
        role="progressbar"
        aria-label={PRIVACY_TEXTS.reRedactionRunning}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={counted ? percent : undefined}
        className="h-2 w-full overflow-hidden rounded-full bg-muted"
      >
        <div className="h-full rounded-full bg-primary transition-[width]" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
