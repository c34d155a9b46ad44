/**
 * The state and save of a privacy form: the draft of categories and retention, the
 * format problems and the server's field errors, and one submit that sends only what changed.
 * Settings › Privacy (a client's settings) and the admin's Privacy tab (the agency's defaults)
 * differ only in what they save and the words they say.
 */
import type { UseMutationResult } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { serverFieldErrors } from '../../lib/api';
import { failureToast } from '../../lib/failure-toast';
import { toast } from '../../lib/use-toast';
import {
  changesOf,
  draftOf,
  type PrivacyDraft,
  type PrivacyDraftChanges,
  parseRetention,
  retentionErrorsOf,
  turnedOn,
} from './privacy-draft';
import type { PrivacyFormErrors } from './privacy-draft-fields';

type Saved = Parameters<typeof draftOf>[0];

export interface PrivacyFormTexts {
  /** Said when nothing differs from what is saved. */
  unchanged: string;
  savedTitle: string;
  /** Said after a save that turned a category on (stored calls are redacted again). */
  redactingAgain: string;
  /** Said after any other save. */
  applied: string;
  failedTitle: string;
  failedText: string;
}

export function usePrivacyForm<S extends Saved>(
  saved: S,
  save: UseMutationResult<S, Error, PrivacyDraftChanges>,
  texts: PrivacyFormTexts,
) {
  // Read once; later reads (the progress poll) never replace what is being edited.
  const [draft, setDraft] = useState<PrivacyDraft>(() => draftOf(saved));
  const [errors, setErrors] = useState<PrivacyFormErrors>({});

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const { retention, problems } = parseRetention(draft.retention);
    if (Object.keys(problems).length > 0) return setErrors(problems);
    const changes = changesOf(saved, { ...draft, retention });
    if (!changes) {
      setErrors({});
      toast({ title: 'Nothing to save', description: texts.unchanged });
      return;
    }
    save.mutate(changes, {
      onSuccess: (next) => {
        setDraft(draftOf(next));
        setErrors({});
        toast({
          title: texts.savedTitle,
          description: turnedOn(changes) ? texts.redactingAgain : texts.applied,
        });
      },
      onError: (error) => {
        setErrors(retentionErrorsOf(serverFieldErrors(error)));
        failureToast(texts.failedTitle, error, texts.failedText);
      },
    });
  }

  return { draft, setDraft, errors, setErrors, onSubmit, pending: save.isPending };
}
