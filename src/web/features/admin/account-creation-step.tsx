/** Wizard step 4 (SPEC §4): a summary of the verified client, then the account is activated. */
import { ArrowLeft, CheckCircle2 } from 'lucide-react';
import { clientDisplayName } from '../../../contract/admin';
import { PendingButton } from '../../components/pending-button';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { DialogFooter } from '../../components/ui/dialog';
import { failureToast } from '../../lib/failure-toast';
import { toast } from '../../lib/use-toast';
import { useFinalizeClient } from './mutations';
import { EMPTY_CLIENT_FORM, type WizardState } from './wizard-state';

export function AccountCreationStep({
  state,
  onBack,
  onDone,
}: {
  state: WizardState;
  onBack: () => void;
  onDone: () => void;
}) {
  const finalize = useFinalizeClient();
  const form = state.form ?? EMPTY_CLIENT_FORM;
  const rows: [string, string][] = [
    ['Name', clientDisplayName({ firstName: form.firstName ?? '', lastName: form.lastName ?? '' })],
    ['Email', (form.email ?? '').trim().toLowerCase()],
    ['Company', form.companyName || '—'],
    ['Webhook URL', state.webhookUrl ?? ''],
  ];

  function create() {
    if (!state.clientId) return;
    finalize.mutate(state.clientId, {
      onSuccess: ({ email }) => {
        toast({
          title: 'Client Created Successfully!',
          description: `The client account was created for ${email}.`,
        });
        onDone();
      },
      onError: (error) => failureToast('Failed to finalize client', error),
    });
  }

  return (
    <div className="grid gap-5">
      <div className="rounded-lg border p-4">
        <div className="mb-3 flex items-center justify-between gap-2">
          <p className="font-medium">Summary</p>
          <Badge className="bg-success text-white">
            <CheckCircle2 /> Webhook verified
          </Badge>
        </div>
        <dl className="grid gap-2 text-sm sm:grid-cols-[8rem_1fr]">
          {rows.map(([label, value]) => (
            <div key={label} className="contents">
              <dt className="text-muted-foreground">{label}</dt>
              <dd className="break-all">{value}</dd>
            </div>
          ))}
        </dl>
      </div>
      <p className="text-muted-foreground text-sm">
        Creating the account activates the client. Generate their login credentials afterwards from the client
        list.
      </p>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onBack}>
          <ArrowLeft /> Back
        </Button>
        <PendingButton type="button" onClick={create} pending={finalize.isPending} pendingLabel="Creating...">
          Create Client Account
        </PendingButton>
      </DialogFooter>
    </div>
  );
}
