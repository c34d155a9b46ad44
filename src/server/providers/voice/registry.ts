/**
 * One adapter per voice platform, chosen by each client's `provider`. Everything that
 * talks to a provider for a client asks here, so no code path can reach Bland with a Vapi key.
 */
import { DEFAULT_VOICE_PROVIDER, isVoiceProvider, type VoiceProviderId } from '../../../contract/providers';
import type { Config } from '../../config';
import { createBlandProvider } from './bland';
import { isVoiceProviderError } from './errors';
import type { MediaAccess } from './provider-http';
import { createRetellProvider } from './retell';
import type { VoiceProvider } from './types';
import { createVapiProvider } from './vapi';

export type VoiceProviders = Record<VoiceProviderId, VoiceProvider>;

/**
 * `media`: the address checks recording URLs go through (bootstrap.ts); the configured platform
 * API URLs' origins are trusted as they are, whatever their address (the stand-ins).
 */
export function createVoiceProviders(
  config: Pick<Config, 'blandApiUrl' | 'vapiApiUrl' | 'retellApiUrl'>,
  overrides: Partial<VoiceProviders> = {},
  media?: Omit<MediaAccess, 'trustedOrigins'>,
): VoiceProviders {
  const trustedOrigins = [config.blandApiUrl, config.vapiApiUrl, config.retellApiUrl];
  const access = media && { ...media, trustedOrigins };
  return {
    bland: named(overrides.bland ?? createBlandProvider({ baseUrl: config.blandApiUrl, media: access })),
    vapi: named(overrides.vapi ?? createVapiProvider({ baseUrl: config.vapiApiUrl, media: access })),
    retell: named(overrides.retell ?? createRetellProvider({ baseUrl: config.retellApiUrl, media: access })),
  };
}

/**
 * Every failure an adapter throws says which platform failed, so the answer a person reads names
 * it ("This recording has expired at Vapi") wherever the error is turned into HTTP.
 */
function named(provider: VoiceProvider): VoiceProvider {
  const stamp = (error: unknown) => {
    if (isVoiceProviderError(error)) error.providerName ??= provider.name;
    throw error;
  };
  const wrapped: VoiceProvider = { ...provider };
  // Object.keys answers string[]; an adapter's own keys are VoiceProvider's.
  for (const key of Object.keys(provider) as (keyof VoiceProvider)[]) {
    const value = provider[key];
    // The synchronous readers do no I/O and throw nothing of the provider's: left as they are.
    if (typeof value !== 'function' || key === 'parseWebhook' || key === 'readStoredPayload') continue;
    // Every remaining member is one of the interface's async methods, whatever its own arguments: the
    // compiler cannot match a method to its key in a loop, so each is wrapped as one unknown function.
    (wrapped as unknown as Record<string, unknown>)[key] = (...args: unknown[]) =>
      (value as (...a: unknown[]) => Promise<unknown>).apply(provider, args).catch(stamp);
  }
  return wrapped;
}

/** The adapter of a client's platform (an unknown value, which the schema prevents, reads as Bland). */
export function voiceOf(voices: VoiceProviders, client: { provider: string }): VoiceProvider {
  return voices[isVoiceProvider(client.provider) ? client.provider : DEFAULT_VOICE_PROVIDER];
}

/** What a client who is not told its platform reads where the platform's name would be. */
export const UNNAMED_PLATFORM = 'the call service';

/**
 * How a client's own answers, e-mails and documents name its platform: the platform is the
 * agency's supplier, named to the client only when the agency turns "show platform details" on.
 * The agency's own views name it always (voiceOf(…).name).
 */
export function platformNameFor(
  voices: VoiceProviders,
  client: { provider: string; show_platform_details: number },
): string {
  return client.show_platform_details === 1 ? voiceOf(voices, client).name : UNNAMED_PLATFORM;
}
