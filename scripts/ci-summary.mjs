#!/usr/bin/env node
/**
 * Adds up what the CI steps wrote (.test-output/<part>/summary.json: counts and each step's
 * duration) and the durations .ci/run noted itself (.test-output/ci-steps.tsv), prints every
 * step's time, writes it all to .test-output/summary.json, and ends with the one line CI reads:
 * `tests: N passed, N failed[, N skipped]`. A part named on the command line whose summary is
 * missing (it crashed before writing one) counts as a failure.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const total = { passed: 0, failed: 0, skipped: 0 };
const parts = {};
const steps = [];

const noted = '.test-output/ci-steps.tsv';
const ciSteps = existsSync(noted)
  ? readFileSync(noted, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [step, started, ended, status] = line.split('\t');
        return {
          step,
          seconds: Math.round((Number(ended) - Number(started)) * 10) / 10,
          ok: status === '0',
          started: Number(started),
          ended: Number(ended),
        };
      })
  : [];
for (const { started, ended, ...s } of ciSteps) steps.push({ part: 'ci', ...s });

for (const part of process.argv.slice(2)) {
  const file = `.test-output/${part}/summary.json`;
  if (!existsSync(file)) {
    parts[part] = null;
    total.failed++;
    continue;
  }
  const summary = JSON.parse(readFileSync(file, 'utf8'));
  parts[part] = summary;
  for (const s of summary.steps ?? []) steps.push({ part, ...s });
  for (const key of Object.keys(total)) total[key] += summary[key];
}

// From the first step's start to the last one's end: some of CI's steps run side by side.
const seconds = ciSteps.length
  ? Math.round((Math.max(...ciSteps.map((s) => s.ended)) - Math.min(...ciSteps.map((s) => s.started))) * 10) /
    10
  : Math.round(Object.values(parts).reduce((sum, p) => sum + (p?.seconds ?? 0), 0) * 10) / 10;
writeFileSync('.test-output/summary.json', JSON.stringify({ ...total, seconds, steps, parts }, null, 2));

const failed = Object.entries(parts).flatMap(([part, p]) => (p?.failures ?? []).map((f) => `${part}: ${f}`));
if (failed.length) {
  console.log('\n=== failed tests');
  for (const line of failed.slice(0, 40)) console.log(line);
  if (failed.length > 40) console.log(`… and ${failed.length - 40} more`);
}

console.log('\n=== step durations');
for (const s of steps) {
  console.log(
    `${`${s.part}: ${s.step}`.padEnd(64)} ${s.seconds.toFixed(1).padStart(8)} s  ${s.ok ? 'ok' : 'FAILED'}`,
  );
}
console.log(`${'total'.padEnd(64)} ${seconds.toFixed(1).padStart(8)} s`);
console.log('');
for (const [part, summary] of Object.entries(parts)) {
  console.log(
    summary
      ? `${part} on Node ${summary.node}: ${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped`
      : `${part}: no summary (the step did not finish)`,
  );
}
const skipped = total.skipped ? `, ${total.skipped} skipped` : '';
console.log(`tests: ${total.passed} passed, ${total.failed} failed${skipped}`);
process.exit(total.failed === 0 ? 0 : 1);
