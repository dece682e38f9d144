/** PLACEHOLDER until the Crisp module lands (replaced by the crisp branch): credential names only, never configured. */
import { placeholderPlatform } from './placeholder';

export const crisp = placeholderPlatform('crisp', ['CRISP_PLUGIN_ID', 'CRISP_TOKEN_IDENTIFIER', 'CRISP_TOKEN_KEY', 'CRISP_HOOK_SECRET'], {
  env: 'CRISP_API_BASE',
  default: 'https://api.crisp.chat/v1',
});
