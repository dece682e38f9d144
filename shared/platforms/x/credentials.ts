/** The operator's X app (an OAuth 2.0 confidential client) and X's bases, as configuration. */
import { blankToUndefined, type CredentialSpec } from '#shared/platforms/contract';

export interface XCredentials {
  /** The operator's OAuth 2.0 confidential client; undefined: X actions are recorded as not_configured. */
  clientId: string | undefined;
  clientSecret: string | undefined;
  apiBase: string;
  /** X's authorization page (configuration, so a stand-in can play it). */
  authorizeUrl: string;
}

export const X_DEFAULT_BASE = 'https://api.x.com';
export const X_DEFAULT_AUTHORIZE_URL = 'https://x.com/i/oauth2/authorize';

export const X_CREDENTIALS: CredentialSpec<XCredentials> = {
  names: ['X_CLIENT_ID', 'X_CLIENT_SECRET'],
  apiBase: { env: 'X_API_BASE', default: X_DEFAULT_BASE },
  read: (values, apiBase, settings) => ({
    clientId: blankToUndefined(values.X_CLIENT_ID),
    clientSecret: blankToUndefined(values.X_CLIENT_SECRET),
    apiBase,
    authorizeUrl: settings.X_AUTHORIZE_URL ?? X_DEFAULT_AUTHORIZE_URL,
  }),
  configured: (c) => c.clientId !== undefined && c.clientSecret !== undefined,
};
