/** The one way a failed request is reported (SPEC §8): a destructive toast in the server's own words. */
import { serverMessageOf } from './api';
import { toast } from './use-toast';

/** `fallback` is shown when the server gave no message of its own (or could not be reached). */
export function failureToast(title: string, error: unknown, fallback = 'Please try again.'): void {
  toast({ variant: 'destructive', title, description: serverMessageOf(error, fallback) });
}
