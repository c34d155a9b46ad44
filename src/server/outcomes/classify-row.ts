/** A stored call's outcome and attention reasons under a client's outcomes: one place for both. */
import type { CallRow } from '../db/schema';
import { attentionReasons } from './attention';
import { type FactColumns, factsOf } from './call-facts';
import { classifySteps } from './classify';
import type { OutcomeSet } from './outcomes-repository';

export type ClassifiedColumns = Pick<CallRow, 'outcome' | 'outcome_version' | 'attention_reasons'>;

type ClassifiableRow = FactColumns & Pick<CallRow, 'error_message'>;

/**
 * The classification one rule at a time (see classifySteps), for long runs that let the event
 * loop turn between rules (re-classification); `classifyRow` runs it at once.
 */
export function* classifyRowSteps(
  row: ClassifiableRow,
  set: OutcomeSet,
): Generator<number, ClassifiedColumns> {
  const facts = factsOf(row);
  const outcome = yield* classifySteps(facts, set.outcomes);
  const reasons = attentionReasons(
    { ...facts, errorMessage: row.error_message },
    outcome,
    set.outcomes,
    set.thresholds,
  );
  return {
    outcome,
    outcome_version: set.version,
    attention_reasons: reasons.length > 0 ? JSON.stringify(reasons) : null,
  };
}

export function classifyRow(row: ClassifiableRow, set: OutcomeSet): ClassifiedColumns {
  const steps = classifyRowSteps(row, set);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}
