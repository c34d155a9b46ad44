/** A stored call's outcome and attention reasons under a client's outcomes: one place for both. */
import type { CallRow } from '../db/schema';
import { attentionReasons } from './attention';
import { type FactColumns, factsOf } from './call-facts';
import { classify } from './classify';
import type { OutcomeSet } from './outcomes-repository';

export type ClassifiedColumns = Pick<CallRow, 'outcome' | 'outcome_version' | 'attention_reasons'>;

export function classifyRow(
  row: FactColumns & Pick<CallRow, 'error_message'>,
  set: OutcomeSet,
): ClassifiedColumns {
  const facts = factsOf(row);
  const outcome = classify(facts, set.outcomes);
  const reasons = attentionReasons({ ...facts, errorMessage: row.error_message }, outcome, set.outcomes);
  return {
    outcome,
    outcome_version: set.version,
    attention_reasons: reasons.length > 0 ? JSON.stringify(reasons) : null,
  };
}
