/** PLACEHOLDER until the Reddit module lands (replaced by the reddit branch): credential names only, never configured. */
import { placeholderPlatform } from './placeholder';

export const reddit = placeholderPlatform('reddit', ['REDDIT_CLIENT_ID', 'REDDIT_CLIENT_SECRET', 'REDDIT_REFRESH_TOKEN', 'REDDIT_USERNAME', 'REDDIT_USER_AGENT'], {
  env: 'REDDIT_API_BASE',
  default: 'https://oauth.reddit.com',
});
