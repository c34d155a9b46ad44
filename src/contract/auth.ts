/** Login payloads and session shapes (SPEC §3, §7; DESIGN §6 [8] [9]). */
import { z } from 'zod';

export const ClientLoginBody = z.object({
  email: z.string().trim().min(1).max(320),
  password: z.string().min(1).max(1000),
});
export type ClientLoginBody = z.infer<typeof ClientLoginBody>;

export const AdminLoginBody = z.object({
  username: z.string().trim().min(1).max(200),
  password: z.string().min(1).max(1000),
});
export type AdminLoginBody = z.infer<typeof AdminLoginBody>;

export type ApiKeyStatus = 'valid' | 'invalid' | 'missing';

/** What GET /api/client/session answers: never the API key or the password hash. */
export interface ClientSession {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  companyName: string | null;
  phoneNumber: string | null;
  jobTitle: string | null;
  webhookUrl: string;
  apiKeyStatus: ApiKeyStatus;
  timezone: string;
}

export interface ClientLoginResponse {
  success: true;
  client: ClientSession;
}

export interface AdminSession {
  id: string;
  username: string;
  name: string;
}

export const INVALID_CLIENT_LOGIN = 'Invalid email or password';
export const INVALID_ADMIN_LOGIN = 'Invalid username or password';
