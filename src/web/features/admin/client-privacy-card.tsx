/**
 * A client's privacy in the admin client view: closed by default so the calls stay
 * near the top; opened, the same cards as the client's Settings › Privacy (redaction, retention,
 * erasure, the caller's export) on the admin's endpoints for this client.
 */
import { ChevronDown, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import type { VoiceProviderId } from '../../../contract/providers';
import { CallerPrivacy } from '../../components/privacy/caller-privacy';
import { adminPrivacyApi } from '../../components/privacy/privacy-api';
import { Button } from '../../components/ui/button';
import { Card, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { cn } from '../../lib/utils';

/** `provider` undefined: the client is still being read; the settings open once it is known. */
export function ClientPrivacyCard({
  clientId,
  provider,
}: {
  clientId: string;
  provider: VoiceProviderId | undefined;
}) {
  const [open, setOpen] = useState(false);
  return (
    <section
      className="grid gap-6"
      aria-labelledby="client-privacy-heading"
      data-testid="admin-client-privacy"
    >
      <Card className="gap-4">
        <CardHeader className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <div className="grid gap-1.5">
            <CardTitle className="flex items-center gap-2 text-lg">
              <ShieldCheck className="size-4" aria-hidden="true" />
              <h2 id="client-privacy-heading">Privacy and callers’ data</h2>
            </CardTitle>
            <CardDescription>
              This client’s redaction and retention, erasure of a caller and a caller’s data export. Changes
              are recorded in the audit log.
            </CardDescription>
          </div>
          <Button
            variant="outline"
            aria-expanded={open}
            aria-controls="client-privacy-content"
            onClick={() => setOpen(!open)}
            disabled={!provider}
            className="w-full sm:w-auto"
          >
            <ChevronDown className={cn('transition-transform', open && 'rotate-180')} aria-hidden="true" />
            {open ? 'Hide privacy settings' : 'Show privacy settings'}
          </Button>
        </CardHeader>
      </Card>
      {open && provider && (
        <div id="client-privacy-content" className="grid gap-6">
          <CallerPrivacy api={adminPrivacyApi(clientId)} provider={provider} idPrefix="client-privacy" />
        </div>
      )}
    </section>
  );
}
