/**
 * Where one account's privacy lives: the client's own endpoints, or the admin's naming
 * the client. The settings, erasure and export components take one of these, so Settings › Privacy
 * and the admin's client view are the same components.
 */
export interface PrivacyApi {
  /** GET/PUT the settings (PrivacySettings / PrivacyUpdate). */
  settings: string;
  /** POST an erasure, GET the list; `${erasure}/${id}` one erasure. */
  erasure: string;
  /** POST {phone}: the caller's calls as a JSON download. */
  subjectExport: string;
}

export const CLIENT_PRIVACY_API: PrivacyApi = {
  settings: '/api/client/privacy',
  erasure: '/api/client/erasure',
  subjectExport: '/api/client/subject-export',
};

export function adminPrivacyApi(clientId: string): PrivacyApi {
  const id = encodeURIComponent(clientId);
  return {
    settings: `/api/admin/client-privacy/${id}`,
    erasure: `/api/admin/client-erasure/${id}`,
    subjectExport: `/api/admin/client-subject-export/${id}`,
  };
}
