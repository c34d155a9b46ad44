/**
 * The voice platforms a client's agents can run on, as the API and the browser name
 * them. Each has its own adapter on the server (providers/voice/); a client has exactly one.
 */
export const VOICE_PROVIDERS = ['bland', 'vapi', 'retell'] as const;
export type VoiceProviderId = (typeof VOICE_PROVIDERS)[number];
export const DEFAULT_VOICE_PROVIDER: VoiceProviderId = 'bland';

export const VOICE_PROVIDER_NAMES: Record<VoiceProviderId, string> = {
  bland: 'Bland AI',
  vapi: 'Vapi',
  retell: 'Retell AI',
};

export const isVoiceProvider = (value: unknown): value is VoiceProviderId =>
  typeof value === 'string' && VOICE_PROVIDERS.some((id) => id === value);

/**
 * Where the webhook URL goes on each platform, and how its deliveries are signed: what the
 * wizard's webhook step and the edit dialog show.
 */
export const PROVIDER_SETUP: Record<VoiceProviderId, { steps: string[]; signing: string }> = {
  bland: {
    steps: [
      'In Bland, open the agent, pathway or phone number that should report its calls.',
      'Paste the webhook URL into its "Webhook" field and save.',
      'Click “Test Webhook Connection”, then place a test call: it arrives here when it ends.',
    ],
    signing:
      'Optional: set a webhook signing secret in Bland and enter the same secret here; deliveries then carry X-Webhook-Signature.',
  },
  vapi: {
    steps: [
      'In Vapi, open the assistant (or phone number) and set its Server URL to the webhook URL.',
      'Under Server Messages, keep "end-of-call-report" selected.',
      'Click “Test Webhook Connection”, then place a test call: it arrives here with Vapi’s end-of-call report.',
    ],
    signing:
      'Optional: give the server URL an HMAC credential with Vapi’s defaults (SHA-256, x-signature with x-timestamp, timestamp included, hex) or a secret (X-Vapi-Secret), and enter the same secret here.',
  },
  retell: {
    steps: [
      'In Retell, open the agent and set its Agent Level Webhook URL to the webhook URL (or set it for the whole account).',
      'Keep the call_started, call_ended and call_analyzed events.',
      'Click “Test Webhook Connection”, then place a test call: it arrives here when the call ends.',
    ],
    signing:
      "Retell signs every delivery (X-Retell-Signature) with the API key that has the webhook badge: enter that key as the client's API key and deliveries are checked with it.",
  },
};
