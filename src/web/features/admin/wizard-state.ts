/**
 * The create-client wizard's state machine (SPEC §4): 1 client information → 2 webhook
 * configuration → 3 webhook testing → 4 account creation. Back moves one step; closing resets.
 * Pure, so the rules are tested without a browser.
 */
import type { CreateClientFormInput } from '../../../contract/admin';
import { DEFAULT_VOICE_PROVIDER } from '../../../contract/providers';

export type WizardStep = 1 | 2 | 3 | 4;

export const WIZARD_STEPS: { step: WizardStep; title: string }[] = [
  { step: 1, title: 'Client Information' },
  { step: 2, title: 'Webhook Configuration' },
  { step: 3, title: 'Webhook Testing' },
  { step: 4, title: 'Account Creation' },
];

export interface WizardState {
  step: WizardStep;
  /** What was submitted in step 1; kept so Back shows it again. */
  form: CreateClientFormInput | null;
  clientId: string | null;
  webhookUrl: string | null;
  testSucceeded: boolean;
}

export type WizardAction =
  | { type: 'generated'; form: CreateClientFormInput; clientId: string; webhookUrl: string }
  | { type: 'reuse' }
  | { type: 'startTest' }
  | { type: 'testSucceeded' }
  | { type: 'continue' }
  | { type: 'back' }
  | { type: 'reset' };

/** Step 1 before anything was typed. */
export const EMPTY_CLIENT_FORM: CreateClientFormInput = {
  provider: DEFAULT_VOICE_PROVIDER,
  firstName: '',
  lastName: '',
  email: '',
  companyName: '',
  companyWebsite: '',
  industry: '',
  companySize: '',
  jobTitle: '',
  phoneNumber: '',
  address: '',
  city: '',
  state: '',
  zipCode: '',
  country: '',
  // Filled in by the step with the zone suggested from the country and state, or the browser's.
  timezone: '',
  notes: '',
  notifyNow: false,
};

export const initialWizardState: WizardState = {
  step: 1,
  form: null,
  clientId: null,
  webhookUrl: null,
  testSucceeded: false,
};

export function wizardReducer(state: WizardState, action: WizardAction): WizardState {
  switch (action.type) {
    case 'generated':
      return {
        step: 2,
        form: action.form,
        clientId: action.clientId,
        webhookUrl: action.webhookUrl,
        testSucceeded: false,
      };
    case 'reuse':
      return state.clientId ? { ...state, step: 2 } : state;
    case 'startTest':
      return state.step === 2 ? { ...state, step: 3 } : state;
    case 'testSucceeded':
      // Unchanged state when already known, so a repeated answer causes no re-render.
      return state.step === 3 && !state.testSucceeded ? { ...state, testSucceeded: true } : state;
    case 'continue':
      // Step 4 only once a test call arrived.
      return state.step === 3 && state.testSucceeded ? { ...state, step: 4 } : state;
    case 'back':
      // step > 1, so step - 1 is still a WizardStep; subtraction gives number
      return state.step > 1 ? { ...state, step: (state.step - 1) as WizardStep } : state;
    case 'reset':
      return initialWizardState;
  }
}

/** Polling runs only while step 3 waits for the test call. */
export function isPolling(state: WizardState): boolean {
  return state.step === 3 && !state.testSucceeded && state.clientId !== null;
}

/** Resubmitting an unchanged form after Back keeps the webhook URL already issued. */
export function sameForm(a: CreateClientFormInput | null, b: CreateClientFormInput): boolean {
  if (!a) return false;
  // Object.keys is string[]; the keys are the two forms' own
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof CreateClientFormInput>;
  for (const key of keys) if ((a[key] ?? '') !== (b[key] ?? '')) return false;
  return true;
}
