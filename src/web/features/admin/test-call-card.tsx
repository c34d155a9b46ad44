/** "Send a test call" (Support Tools): through the provider with the client's key, or how to place one. */
import { type FormEvent, useState } from 'react';
import { CopyField } from '../../components/copy-field';
import { FieldShell } from '../../components/form-fields';
import { PendingButton } from '../../components/pending-button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { serverMessageOf } from '../../lib/api';
import { toast } from '../../lib/use-toast';
import { useTestCall } from './console-queries';

export function TestCallCard({
  clientId,
  apiKeyStatus,
  webhookUrl,
}: {
  clientId: string;
  apiKeyStatus: string;
  webhookUrl: string;
}) {
  const [phoneNumber, setPhoneNumber] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const testCall = useTestCall();
  const usable = apiKeyStatus === 'valid';

  function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    testCall.mutate(
      { clientId, phoneNumber: phoneNumber.trim() },
      {
        onSuccess: (result) => toast({ title: 'Test call placed', description: result.message }),
        onError: (error) => setProblem(serverMessageOf(error, 'The test call could not be placed')),
      },
    );
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Send a test call</CardTitle>
        <CardDescription>
          {usable
            ? "The provider calls this number with the client's key; when the call ends it reaches the delivery log."
            : "The client's API key cannot place calls. Place a call to the client's agent from the provider's dashboard, with this webhook URL:"}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {usable ? (
          <form onSubmit={submit} className="grid gap-3" noValidate>
            <FieldShell id="test-call-number" label="Phone number" error={problem ?? undefined}>
              <Input
                id="test-call-number"
                type="tel"
                placeholder="+14155550123"
                value={phoneNumber}
                onChange={(e) => setPhoneNumber(e.target.value)}
                aria-invalid={problem ? true : undefined}
                aria-describedby={problem ? 'test-call-number-error' : undefined}
              />
            </FieldShell>
            <PendingButton
              type="submit"
              className="justify-self-start"
              pending={testCall.isPending}
              pendingLabel="Calling…"
            >
              Send test call
            </PendingButton>
          </form>
        ) : (
          <CopyField id="support-webhook-url" label="Webhook URL" value={webhookUrl} />
        )}
      </CardContent>
    </Card>
  );
}
