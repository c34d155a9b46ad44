/**
 * A call as it arrives, made fit to store under its client's privacy settings: the
 * chosen categories redacted from every text it carries (transcript, summary, error, analysis,
 * variables and the provider's payload kept for re-processing), and what retention has already
 * removed from calls this old left out. The calls store runs it on every call before writing
 * (webhook, confirmation read-back, sync, replay, samples), so no path stores the raw words.
 *
 * Pure apart from the settings given; the call's own from/to numbers are never redacted (they are
 * its metadata, masked for people by access/number-masking.ts).
 */
import type { NormalizedCall, NormalizedTranscriptEntry } from '../providers/voice/types';
import type { EffectivePrivacy } from './privacy-settings';
import { redactionOptionsOf, redactsAnything } from './privacy-settings';
import {
  crossTurnFixes,
  emptyFound,
  type RedactionFound,
  type RedactionMemo,
  type RedactionOptions,
  redactText,
  redactTextOnce,
  redactValue,
} from './redaction';

const DAY_MS = 24 * 60 * 60 * 1000;

/** What retention already removed from a call arriving this old. */
export interface RetentionCleared {
  transcript: boolean;
  recording: boolean;
}

type Storable = NormalizedCall & { raw?: unknown; retentionCleared?: RetentionCleared };

function addFound(into: RedactionFound, more: RedactionFound): void {
  // Object.keys is string[]; a RedactionFound's keys are its categories
  for (const key of Object.keys(into) as (keyof RedactionFound)[]) into[key] += more[key];
}

function redactString(
  text: string | null,
  options: RedactionOptions,
  found: RedactionFound,
  memo: RedactionMemo,
): string | null {
  if (!text) return text;
  const r = redactTextOnce(text, options, memo);
  addFound(found, r.found);
  return r.text;
}

function redactObject(
  value: Record<string, unknown> | null,
  options: RedactionOptions,
  found: RedactionFound,
  memo: RedactionMemo,
): Record<string, unknown> | null {
  if (!value) return value;
  // Redacting keeps the shape: an object in is an object out
  return redactValue(value, options, found, memo).value as Record<string, unknown>;
}

/** The call's texts with the client's categories redacted; `found` counts what was replaced. */
export function redactCallTexts<T extends Storable>(
  call: T,
  privacy: EffectivePrivacy,
): { call: T; found: RedactionFound } {
  const found = emptyFound();
  if (!redactsAnything(privacy)) return { call, found };
  const options = redactionOptionsOf(privacy, [call.fromNumber, call.toNumber].filter(Boolean));
  const memo: RedactionMemo = new Map();
  const transcript = call.transcript?.map(
    (entry): NormalizedTranscriptEntry => ({
      ...entry,
      text: redactString(entry.text, options, found, memo) ?? '',
    }),
  );
  // A card read across two lines of the caller's ("number 4000 0566" / "5566 5556 done").
  if (call.transcript && transcript) {
    const fixes = crossTurnFixes(
      call.transcript.map((entry) => entry.text ?? ''),
      call.transcript.map((entry) => entry.role ?? null),
      options,
      memo,
    );
    for (const [k, fix] of fixes) {
      transcript[k] = { ...transcript[k]!, text: fix.text };
      addFound(found, fix.delta);
    }
  }
  const insights = call.insights && {
    ...call.insights,
    summary: redactString(call.insights.summary, options, found, memo),
    errorMessage: redactString(call.insights.errorMessage, options, found, memo),
    analysis: redactObject(call.insights.analysis, options, found, memo),
    variables: redactObject(call.insights.variables, options, found, memo),
  };
  const raw =
    call.raw === undefined || call.raw === null
      ? call.raw
      : redactValue(call.raw, options, found, memo).value;
  return { call: { ...call, transcript: transcript ?? call.transcript, insights, raw }, found };
}

/**
 * What retention leaves of a call arriving already past it: null when the whole call is past
 * `callDays` (it is not stored), else the call without what is past its time.
 */
export function withinRetention<T extends Storable>(
  call: T,
  privacy: EffectivePrivacy,
  now: number,
): T | null {
  const { transcriptDays, recordingDays, callDays } = privacy.retention;
  const age = now - call.createdAt;
  if (callDays !== null && age > callDays * DAY_MS) return null;
  const transcript = transcriptDays !== null && age > transcriptDays * DAY_MS;
  const recording = recordingDays !== null && age > recordingDays * DAY_MS;
  if (!transcript && !recording) return call;
  return {
    ...call,
    ...(transcript
      ? {
          transcript: null,
          raw: undefined,
          insights: call.insights && { ...call.insights, summary: null, analysis: null, variables: null },
        }
      : {}),
    ...(recording ? { recordingUrl: null } : {}),
    retentionCleared: { transcript, recording },
  };
}

/** Both, in order: retention first (no need to redact what is not kept), then redaction. */
export function prepareCallForStorage<T extends Storable>(
  call: T,
  privacy: EffectivePrivacy,
  now: number,
): T | null {
  const kept = withinRetention(call, privacy, now);
  return kept && redactCallTexts(kept, privacy).call;
}

/** A stored JSON text (or plain text) with the categories redacted from every string in it. */
export function redactJsonText(text: string | null, options: RedactionOptions): string | null {
  if (!text) return text;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return redactText(text, options).text;
  }
  return JSON.stringify(redactValue(value, options).value);
}

/**
 * A delivery's body kept for the delivery log, redacted like the call it carried. A body that
 * changed no longer matches its signature: the caller drops the signature headers with it.
 */
export function redactKeptBody(body: string, privacy: EffectivePrivacy): string {
  if (!redactsAnything(privacy)) return body;
  return redactJsonText(body, redactionOptionsOf(privacy)) ?? body;
}
