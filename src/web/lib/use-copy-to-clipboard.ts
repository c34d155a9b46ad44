/** A copy action with the short-lived "Copied!" flag every copy button shows (SPEC §8). */
import { copyText } from './copy-text';
import { useTemporaryFlag } from './use-temporary-flag';

const COPIED_MS = 2000;

export function useCopyToClipboard() {
  const [copied, showCopied] = useTemporaryFlag(COPIED_MS);

  async function copy(text: string) {
    if (await copyText(text)) showCopied();
  }

  return { copied, copy };
}
