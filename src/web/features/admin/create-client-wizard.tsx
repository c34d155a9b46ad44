/**
 * The Create Client wizard (SPEC §4): client information → webhook configuration → webhook
 * testing (polls every 2 s until a real call reached the URL) → account creation. Back moves
 * one step; closing at any point resets it. Texts of SPEC §8 "Webhook wizard". The steps live in
 * their own files; this one owns the dialog, the progress bar and the state machine's dispatch.
 */
import { Check } from 'lucide-react';
import { useCallback, useReducer } from 'react';
import { DEFAULT_VOICE_PROVIDER } from '../../../contract/providers';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog';
import { cn } from '../../lib/utils';
import { AccountCreationStep } from './account-creation-step';
import { ClientInformationStep } from './client-information-step';
import { WebhookConfigurationStep, WebhookTestingStep } from './webhook-steps';
import { initialWizardState, WIZARD_STEPS, type WizardStep, wizardReducer } from './wizard-state';

export function CreateClientWizard({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [state, dispatch] = useReducer(wizardReducer, initialWizardState);
  const onTestSucceeded = useCallback(() => dispatch({ type: 'testSucceeded' }), []);

  function close() {
    dispatch({ type: 'reset' });
    onOpenChange(false);
  }

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : close())}>
      <DialogContent className="sm:max-w-2xl" onInteractOutside={(e) => e.preventDefault()}>
        <DialogHeader>
          <DialogTitle>Create New Client</DialogTitle>
          <DialogDescription>
            Step {state.step} of 4: {WIZARD_STEPS[state.step - 1].title}
          </DialogDescription>
        </DialogHeader>
        <WizardProgress step={state.step} />
        {state.step === 1 && (
          <ClientInformationStep
            state={state}
            onGenerated={(form, clientId, webhookUrl) =>
              dispatch({ type: 'generated', form, clientId, webhookUrl })
            }
            onReuse={() => dispatch({ type: 'reuse' })}
            onCancel={close}
          />
        )}
        {state.step === 2 && (
          <WebhookConfigurationStep
            provider={state.form?.provider ?? DEFAULT_VOICE_PROVIDER}
            clientId={state.clientId ?? ''}
            webhookUrl={state.webhookUrl ?? ''}
            onBack={() => dispatch({ type: 'back' })}
            onTest={() => dispatch({ type: 'startTest' })}
          />
        )}
        {state.step === 3 && (
          <WebhookTestingStep
            state={state}
            onSucceeded={onTestSucceeded}
            onBack={() => dispatch({ type: 'back' })}
            onContinue={() => dispatch({ type: 'continue' })}
          />
        )}
        {state.step === 4 && (
          <AccountCreationStep state={state} onBack={() => dispatch({ type: 'back' })} onDone={close} />
        )}
      </DialogContent>
    </Dialog>
  );
}

function WizardProgress({ step }: { step: WizardStep }) {
  return (
    <ol className="flex items-center gap-2" aria-label="Wizard progress">
      {WIZARD_STEPS.map((s, i) => {
        const done = s.step < step;
        const current = s.step === step;
        return (
          <li
            key={s.step}
            className="flex flex-1 items-center gap-2"
            aria-current={current ? 'step' : undefined}
          >
            <span
              className={cn(
                'flex size-7 shrink-0 items-center justify-center rounded-full border font-medium text-xs',
                done && 'border-primary bg-primary text-primary-foreground',
                current && 'border-primary-text text-primary-text',
                !done && !current && 'text-muted-foreground',
              )}
            >
              {done ? <Check className="size-4" /> : s.step}
            </span>
            <span
              className={cn('hidden text-xs md:inline', current ? 'font-medium' : 'text-muted-foreground')}
            >
              {s.title}
            </span>
            {i < WIZARD_STEPS.length - 1 && <span className="h-px flex-1 bg-border" />}
          </li>
        );
      })}
    </ol>
  );
}
