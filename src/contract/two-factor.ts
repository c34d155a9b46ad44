/**
 * Two-factor sign-in: TOTP (RFC 6238) with ten single-use recovery codes, for a
 * client's users (/api/client/2fa/…) and the agency's admins (/api/admin/2fa/…), and the second
 * step of both logins. Texts the browser shows and the tests assert live here.
 */
import { z } from 'zod';

/** POST …/2fa/setup: the secret to scan (otpauth:// URL) and its QR code as an SVG document. */
export const TwoFactorSetup = z.object({ otpauthUrl: z.string(), qrSvg: z.string() });
export type TwoFactorSetup = z.infer<typeof TwoFactorSetup>;

/** A TOTP code (6 digits) or a recovery code; spaces and dashes are ignored. */
export const TwoFactorCodeBody = z.object({
  code: z.string().trim().min(1, 'Enter the code').max(64, 'That code is too long'),
});
export type TwoFactorCodeBody = z.infer<typeof TwoFactorCodeBody>;

/** POST …/2fa/enable: the recovery codes, shown this once. */
export const TwoFactorRecoveryCodes = z.object({ recoveryCodes: z.array(z.string()) });
export type TwoFactorRecoveryCodes = z.infer<typeof TwoFactorRecoveryCodes>;

/** GET …/2fa: whether it is on for the person signed in, and whether it is required of them. */
export const TwoFactorStatus = z.object({ enabled: z.boolean(), required: z.boolean() });
export type TwoFactorStatus = z.infer<typeof TwoFactorStatus>;

/** PUT …/2fa/requirement: an Owner for the client's users, an admin for every admin. */
export const TwoFactorRequirementBody = z.object({ required: z.boolean() });
export type TwoFactorRequirementBody = z.infer<typeof TwoFactorRequirementBody>;

/** A login whose password was right and whose second step is awaited (no session yet). */
export const TwoFactorRequired = z.object({ twoFactorRequired: z.literal(true) });
export type TwoFactorRequired = z.infer<typeof TwoFactorRequired>;

export const RECOVERY_CODE_COUNT = 10;
/** A pending sign-in waits this long for its code. */
export const TWO_FACTOR_CHALLENGE_TTL_MS = 5 * 60 * 1000;

export const TWO_FACTOR_MESSAGES = {
  codePrompt: 'Enter the 6-digit code from your authenticator app, or a recovery code.',
  invalidCode: 'That code is not valid. Try the current code from your authenticator app.',
  challengeExpired: 'Your sign-in has expired. Enter your password again.',
  setupFirst: 'Start the set-up first.',
  alreadyOn: 'Two-factor sign-in is already on.',
  notOn: 'Two-factor sign-in is not on.',
  requiredCannotDisable: 'Two-factor sign-in is required for this account; it cannot be turned off.',
  enableYourselfFirst: 'Turn on two-factor sign-in for yourself before requiring it of everyone.',
  /** The answer to every request of someone who must use it and has not set it up. */
  setupRequired: 'Two-factor sign-in is required: set it up in Settings › Security to continue.',
  adminSetupRequired: 'Two-factor sign-in is required for administrators: set it up in Settings to continue.',
} as const;
