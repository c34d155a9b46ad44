import { describe, expect, it } from 'vitest';
import {
  initialWizardState,
  isPolling,
  sameForm,
  type WizardAction,
  type WizardState,
  wizardReducer,
} from './wizard-state';

const form = { firstName: 'Ann', lastName: 'Lee', email: 'ann@example.com' };
const run = (...actions: WizardAction[]): WizardState => actions.reduce(wizardReducer, initialWizardState);
const generated: WizardAction = {
  type: 'generated',
  form,
  clientId: 'c1',
  webhookUrl: 'http://x/api/webhooks/voice/t',
};

describe('create-client wizard', () => {
  it('walks the four steps, continuing to 4 only after the test call', () => {
    expect(run(generated).step).toBe(2);
    expect(run(generated, { type: 'startTest' }).step).toBe(3);
    expect(isPolling(run(generated, { type: 'startTest' }))).toBe(true);
    expect(run(generated, { type: 'startTest' }, { type: 'continue' }).step).toBe(3);
    const tested = run(generated, { type: 'startTest' }, { type: 'testSucceeded' });
    expect(isPolling(tested)).toBe(false);
    expect(wizardReducer(tested, { type: 'continue' }).step).toBe(4);
  });

  it('moves one step back, keeping what was entered', () => {
    const atFour = run(generated, { type: 'startTest' }, { type: 'testSucceeded' }, { type: 'continue' });
    expect(wizardReducer(atFour, { type: 'back' }).step).toBe(3);
    const atOne = run(generated, { type: 'back' });
    expect(atOne).toMatchObject({ step: 1, form, clientId: 'c1' });
    expect(wizardReducer(atOne, { type: 'back' }).step).toBe(1);
    expect(wizardReducer(atOne, { type: 'reuse' }).step).toBe(2);
  });

  it('resets completely when closed', () => {
    expect(run(generated, { type: 'startTest' }, { type: 'reset' })).toEqual(initialWizardState);
    expect(wizardReducer(initialWizardState, { type: 'reuse' })).toEqual(initialWizardState);
  });

  it('compares forms treating missing and empty as equal', () => {
    expect(sameForm(form, { ...form, notes: '' })).toBe(true);
    expect(sameForm(form, { ...form, email: 'b@example.com' })).toBe(false);
    expect(sameForm(null, form)).toBe(false);
  });
});
