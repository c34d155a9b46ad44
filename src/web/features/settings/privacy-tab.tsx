/**
 * Settings › Privacy (Owners: `privacy`): callers' numbers hidden until shown, then
 * callers' personal data: redaction on arrival, how long it is kept, the voice
 * platform's own settings, erasure by caller and the caller's data export.
 */
import type { ClientSession } from '../../../contract/auth';
import { CallerPrivacy } from '../../components/privacy/caller-privacy';
import { CLIENT_PRIVACY_API } from '../../components/privacy/privacy-api';
import { PrivacyCard } from './privacy-card';

export function PrivacyTab({ client }: { client: ClientSession }) {
  return (
    <div className="grid gap-6">
      <PrivacyCard />
      <CallerPrivacy api={CLIENT_PRIVACY_API} provider={client.provider} />
    </div>
  );
}
