#!/usr/bin/env node
/**
 * Adds up the summaries the CI steps wrote (.test-output/<step>/summary.json) and prints the one
 * line CI reads: `tests: N passed, N failed[, N skipped]`. A step named on the command line whose
 * summary is missing (it crashed before writing one) counts as a failure.
 */
import { existsSync, readFileSync } from 'node:fs';

const total = { passed: 0, failed: 0, skipped: 0 };
for (const step of process.argv.slice(2)) {
  const file = `.test-output/${step}/summary.json`;
  if (!existsSync(file)) {
    console.log(`${step}: no summary (the step did not finish)`);
    total.failed++;
    continue;
  }
  const summary = JSON.parse(readFileSync(file, 'utf8'));
  console.log(
    `${step} on Node ${summary.node}: ${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped`,
  );
  for (const key of Object.keys(total)) total[key] += summary[key];
}
const skipped = total.skipped ? `, ${total.skipped} skipped` : '';
console.log(`tests: ${total.passed} passed, ${total.failed} failed${skipped}`);
process.exit(total.failed === 0 ? 0 : 1);
