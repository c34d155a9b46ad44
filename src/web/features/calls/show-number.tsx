/**
 * "Show number" in the call drawer: when the server answered the call's numbers masked
 * and the signed-in user holds `unmask_numbers` (the client's privacy setting hides numbers until
 * shown), a button asks the server for them in full (recorded in the activity log). Once shown,
 * "Copy number" copies the caller's number as stored (E.164). Nothing is offered to those who
 * cannot show numbers, nor in the admin's or the demo's views (no `unmaskUrl`).
 */
import { Copy, Eye } from 'lucide-react';
import type { CallDetail } from '../../../contract/calls';
import { isMaskedPhoneNumber } from '../../../contract/phone-mask';
import { PRIVACY_TEXTS, type UnmaskedNumbers } from '../../../contract/privacy';
import { Button } from '../../components/ui/button';
import { useCan } from '../../lib/permissions';
import { useCopyToClipboard } from '../../lib/use-copy-to-clipboard';
import type { CallSource } from './call-source';
import { useUnmaskNumbers } from './mutations';

/** The call's numbers as shown: in full once revealed for this call, else as the server gave them. */
export function useShownNumbers(
  source: CallSource,
  call: Pick<CallDetail, 'id' | 'fromNumber' | 'toNumber'>,
) {
  const unmask = useUnmaskNumbers(source);
  const canShow = useCan('unmask_numbers') && !!source.unmaskUrl;
  const masked = isMaskedPhoneNumber(call.fromNumber) || isMaskedPhoneNumber(call.toNumber);
  // The answer of another call (the drawer moved on) is not this call's.
  const revealed: UnmaskedNumbers | null = unmask.data?.id === call.id ? unmask.data : null;
  return {
    fromNumber: revealed?.fromNumber ?? call.fromNumber,
    toNumber: revealed?.toNumber ?? call.toNumber,
    revealed,
    offer: masked && canShow && !revealed,
    reveal: () => unmask.mutate(call.id),
    pending: unmask.isPending,
  };
}

export function ShowNumberActions({ shown }: { shown: ReturnType<typeof useShownNumbers> }) {
  const { copied, copy } = useCopyToClipboard();
  if (shown.revealed) {
    const number = shown.revealed.fromNumber;
    return (
      <Button variant="outline" size="sm" onClick={() => copy(number)} data-testid="copy-number">
        <Copy aria-hidden="true" /> {copied ? 'Copied!' : 'Copy number'}
      </Button>
    );
  }
  if (!shown.offer) return null;
  return (
    <Button
      variant="outline"
      size="sm"
      onClick={shown.reveal}
      disabled={shown.pending}
      data-testid="show-number"
    >
      <Eye aria-hidden="true" /> {PRIVACY_TEXTS.showNumber}
    </Button>
  );
}
