/**
 * Callers' personal data for one account, the same in Settings › Privacy and the
 * admin's client view: redaction and retention, the voice platform's own settings, erasure by
 * caller and the caller's data export, through the account's `PrivacyApi`.
 */
import type { VoiceProviderId } from '../../../contract/providers';
import { ErasureCard } from './erasure-card';
import { PersonalDataCard } from './personal-data-card';
import { PlatformSettingsCard } from './platform-settings-card';
import type { PrivacyApi } from './privacy-api';
import { SubjectExportCard } from './subject-export-card';

export function CallerPrivacy({
  api,
  provider,
  idPrefix = 'privacy',
}: {
  api: PrivacyApi;
  provider?: VoiceProviderId;
  idPrefix?: string;
}) {
  return (
    <>
      <PersonalDataCard api={api} idPrefix={idPrefix} />
      <PlatformSettingsCard provider={provider} />
      <ErasureCard api={api} idPrefix={idPrefix} />
      <SubjectExportCard api={api} idPrefix={idPrefix} />
    </>
  );
}
