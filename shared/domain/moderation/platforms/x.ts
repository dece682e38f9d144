/** PLACEHOLDER until the X module lands (replaced by the x branch): credential names only, never configured. */
import { placeholderPlatform } from './placeholder';

export const x = placeholderPlatform('x', ['X_CLIENT_ID', 'X_CLIENT_SECRET'], { env: 'X_API_BASE', default: 'https://api.x.com' });
