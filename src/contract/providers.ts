/**
 * The voice platforms a client's agents can run on, as the API and the browser name
 * them. Each has its own adapter on the server (providers/voice/); a client has exactly one.
 */
export const VOICE_PROVIDERS = ['bland', 'vapi', 'retell'] as const;
export type VoiceProviderId = (typeof VOICE_PROVIDERS)[number];
export const DEFAULT_VOICE_PROVIDER: VoiceProviderId = 'bland';

export const isVoiceProvider = (value: unknown): value is VoiceProviderId =>
  typeof value === 'string' && VOICE_PROVIDERS.some((id) => id === value);

/**
 * What the browser (and the adapters' names) need to know of each platform, in one table: a new
 * platform is one more entry here and one adapter on the server; no screen branches on a
 * platform's name.
 */
/** A setting to choose on the platform's HMAC credential: its name, value, and whether typed literally. */
export type HmacSetting = [setting: string, value: string, literal: boolean];

export interface VoicePlatform {
  /** The platform's name as people know it. */
  name: string;
  /** Where the webhook URL goes on the platform: the wizard's webhook step lists these. */
  setupSteps: string[];
  /** How its deliveries are signed: the wizard's webhook step and the edit dialog. */
  signing: string;
  /** The client's Security tab's line on signing, where it differs from `signing`. */
  securityTabSigning?: string;
  /**
   * The secret it signs deliveries with, and where people find it; null when it signs with the
   * client's API key (there is then no separate secret to set).
   */
  signingSecret: {
    /** The edit dialog's hint while no secret is set. */
    adminHint: string;
    /** The wizard's hint under the secret's field. */
    wizardHint: string;
    /** The client's Set Signing Secret dialog. */
    clientDialog: string;
    /** The HMAC credential's settings to choose on the platform, when it offers one (the wizard). */
    hmacSettings: HmacSetting[] | null;
  } | null;
  /** What the platform offers for its own copy of a call (Settings › Privacy). */
  ownCopy: string;
}

export const VOICE_PLATFORMS: Record<VoiceProviderId, VoicePlatform> = {
  bland: {
    name: 'Bland AI',
    setupSteps: [
      'In Bland, open the agent, pathway or phone number that should report its calls.',
      'Paste the webhook URL into its "Webhook" field and save.',
      'Click “Test Webhook Connection”, then place a test call: it arrives here when it ends.',
    ],
    signing:
      'Optional: set a webhook signing secret in Bland and enter the same secret here; deliveries then carry X-Webhook-Signature.',
    securityTabSigning:
      'With a secret set, only deliveries Bland AI signed with it (X-Webhook-Signature) are accepted.',
    signingSecret: {
      adminHint:
        'Not set. Paste the secret from Bland’s Dev Portal (Account Settings → Keys) to refuse unsigned deliveries.',
      wizardHint:
        'From Bland’s Dev Portal (Account Settings → Keys). With it, unsigned deliveries are refused.',
      clientDialog:
        "Create it in Bland's Dev Portal (Account Settings → Keys → Replace Secret) and paste it here. Bland shows it only once.",
      hmacSettings: null,
    },
    ownCopy:
      'Each call can be started with a recording lifespan: how long Bland keeps its recording. Bland has no way to delete a call afterwards, so an erasure here says on its receipt that Bland’s copy was kept.',
  },
  vapi: {
    name: 'Vapi',
    setupSteps: [
      'In Vapi, open the assistant (or phone number) and set its Server URL to the webhook URL.',
      'Under Server Messages, keep "end-of-call-report" selected.',
      'Click “Test Webhook Connection”, then place a test call: it arrives here with Vapi’s end-of-call report.',
    ],
    signing:
      'Optional: give the server URL an HMAC credential with Vapi’s defaults (SHA-256, x-signature with x-timestamp, timestamp included, hex) or a secret (X-Vapi-Secret), and enter the same secret here.',
    signingSecret: {
      adminHint:
        'Not set. Paste the secret of the server URL’s credential in Vapi (X-Vapi-Secret or HMAC) to refuse unsigned deliveries.',
      wizardHint:
        'The secret of the server URL’s credential in Vapi (X-Vapi-Secret, or an HMAC credential). With it, unsigned deliveries are refused.',
      clientDialog:
        "The secret of your server URL's credential in Vapi (sent as X-Vapi-Secret, or an HMAC credential's key): paste the same secret here.",
      // The HMAC credential as the server checks it: Vapi's own defaults (HmacAuthenticationPlan).
      // docs/voice-provider.md §5 lists the other forms that are accepted too.
      hmacSettings: [
        ['Type', 'HMAC', true],
        ['Secret key', 'the secret entered above', false],
        ['Algorithm', 'SHA256', true],
        ['Signature header', 'x-signature', true],
        ['Timestamp header', 'x-timestamp', true],
        ['Include timestamp', 'on', true],
        ['Payload format', '{timestamp}.{body}', true],
        ['Signature encoding', 'hex', true],
        ['Signature prefix', 'leave empty', false],
        ['Secret is base64', 'off', true],
      ],
    },
    ownCopy:
      'Each assistant has a compliance plan: PCI mode keeps card details out of what Vapi stores, and the transcript and the recording can be redacted or not kept at all. Set it per assistant in Vapi’s dashboard.',
  },
  retell: {
    name: 'Retell AI',
    setupSteps: [
      'In Retell, open the agent and set its Agent Level Webhook URL to the webhook URL (or set it for the whole account).',
      'Keep the call_started, call_ended and call_analyzed events.',
      'Click “Test Webhook Connection”, then place a test call: it arrives here when the call ends.',
    ],
    signing:
      "Retell signs every delivery (X-Retell-Signature) with the API key that has the webhook badge: enter that key as the client's API key and deliveries are checked with it.",
    // Signed with the client's API key: no separate secret.
    signingSecret: null,
    ownCopy:
      'Each agent has PII redaction, with the categories Retell removes from its transcripts and recordings, and a data storage retention: how long Retell keeps calls. Set them per agent in Retell’s dashboard.',
  },
};
