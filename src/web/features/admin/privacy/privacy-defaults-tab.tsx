/**
 * The admin console's Privacy tab: the agency's defaults for callers' personal data.
 * What every client redacts until it chooses for itself, and the longest each kind of data is
 * kept: a client may shorten it, never lengthen it. A client's own settings and its erasures are
 * in the admin's client view.
 */
import { ShieldCheck } from 'lucide-react';
import type { PrivacyDefaults } from '../../../../contract/privacy';
import { PlatformSettingsCard } from '../../../components/privacy/platform-settings-card';
import { PrivacyDraftFields } from '../../../components/privacy/privacy-draft-fields';
import { usePrivacyForm } from '../../../components/privacy/use-privacy-form';
import { QueryView } from '../../../components/query-view';
import { SaveFooter } from '../../../components/save-footer';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { usePrivacyDefaults, useSavePrivacyDefaults } from './queries';

export function PrivacyDefaultsTab() {
  const defaults = usePrivacyDefaults();
  return (
    <div className="grid min-w-0 gap-6 [&>*]:min-w-0">
      <Card data-testid="privacy-defaults">
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <ShieldCheck className="size-4" aria-hidden="true" />
            <h2>Callers’ personal data: the agency’s defaults</h2>
          </CardTitle>
          <CardDescription>
            Every client follows these until it saves its own choices, in its Settings › Privacy or in its
            view here. The days are the longest a client may keep each kind: a client can only shorten them.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <QueryView
            query={defaults}
            what="the privacy defaults"
            isEmpty={(data) => !data}
            loading={<Skeleton className="h-64 w-full" aria-label="Loading the privacy defaults" />}
            empty={null}
          >
            {(data) => <DefaultsForm saved={data} />}
          </QueryView>
        </CardContent>
      </Card>
      <PlatformSettingsCard />
    </div>
  );
}

function DefaultsForm({ saved }: { saved: PrivacyDefaults }) {
  const save = useSavePrivacyDefaults();
  const form = usePrivacyForm(saved, save, {
    unchanged: 'The defaults are as saved.',
    savedTitle: 'Privacy defaults saved',
    redactingAgain: 'Clients following the defaults have their stored calls redacted again.',
    applied: 'Every client’s data is kept no longer than this from the next minute.',
    failedTitle: 'Privacy defaults not saved',
    failedText: 'The defaults could not be saved.',
  });

  return (
    <form className="grid gap-6" aria-label="Privacy defaults" noValidate onSubmit={form.onSubmit}>
      <PrivacyDraftFields
        idPrefix="defaults"
        draft={form.draft}
        onDraft={form.setDraft}
        errors={form.errors}
        onErrors={form.setErrors}
        disabled={form.pending}
      />
      <SaveFooter type="submit" label="Save defaults" pending={form.pending} />
    </form>
  );
}
