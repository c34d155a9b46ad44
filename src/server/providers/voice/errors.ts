/**
 * What can go wrong when talking to a voice provider, as typed errors with messages a person can
 * act on. Routes map them to HTTP (usually 502); sync marks the key invalid on ProviderAuthError.
 * Messages never include the API key or the provider's raw answer.
 */

export type VoiceProviderErrorCode =
  | 'provider_error'
  | 'provider_auth'
  | 'provider_unavailable'
  | 'provider_not_found'
  | 'recording_expired';

export class VoiceProviderError extends Error {
  readonly code: VoiceProviderErrorCode = 'provider_error';
  /** Which platform failed ("Vapi"), set by the provider registry. */
  providerName?: string;
  constructor(
    message = 'The voice provider answered with an unexpected error',
    /** The provider's HTTP status when there was one. */
    readonly upstreamStatus?: number,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** 401/403: the key is wrong or revoked. Stop and mark the key invalid; retrying will not help. */
export class ProviderAuthError extends VoiceProviderError {
  override readonly code = 'provider_auth';
  constructor(upstreamStatus?: number) {
    super('The voice provider rejected the API key', upstreamStatus);
  }
}

/** 429 or 5xx after our retries, a timeout, or a network failure: worth trying again later. */
export class ProviderUnavailableError extends VoiceProviderError {
  override readonly code = 'provider_unavailable';
  constructor(upstreamStatus?: number, message = 'The voice provider is not responding, try again later') {
    super(message, upstreamStatus);
  }
}

export class ProviderNotFoundError extends VoiceProviderError {
  override readonly code = 'provider_not_found';
  constructor(message = 'The voice provider has no such call', upstreamStatus?: number) {
    super(message, upstreamStatus);
  }
}

/** The call exists but its audio is gone (providers keep recordings for a limited time). */
export class RecordingExpiredError extends VoiceProviderError {
  override readonly code = 'recording_expired';
  constructor(upstreamStatus?: number) {
    super('This recording has expired at the voice provider', upstreamStatus);
  }
}

export function isVoiceProviderError(error: unknown): error is VoiceProviderError {
  return error instanceof VoiceProviderError;
}

/**
 * The HTTP answer for a provider failure, decided once (app.ts's error handler): a gone recording
 * is 410, an unknown call or recording 404, anything else is the provider's fault, 502.
 */
export function voiceHttpError(
  error: VoiceProviderError,
  providerName = error.providerName ?? 'the voice provider',
): { statusCode: number; message: string } {
  switch (error.code) {
    case 'recording_expired':
      return { statusCode: 410, message: `This recording has expired at ${providerName}` };
    case 'provider_not_found':
      return { statusCode: 404, message: error.message };
    default:
      return { statusCode: 502, message: error.message };
  }
}
