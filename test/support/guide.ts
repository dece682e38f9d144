import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { PROJECT_ROOT } from '#infra/projectRoot';

/**
 * The guide's pages (docs/guide), in the order a reader runs them in one shell: the walkthrough test joins their
 * shell blocks in exactly this order. test/layout/docs.test.ts checks the list against the folder.
 */
export const GUIDE_PAGES = [
  '01-account.md',
  '02-intelligence.md',
  '03-jobs.md',
  '04-growth.md',
  '05-moderation.md',
  '06-telegram-discord.md',
  '07-spam-detection.md',
  '08-reddit.md',
  '09-x.md',
  '10-crisp.md',
  '11-webhooks.md',
  '12-mcp.md',
] as const;

export type GuidePage = (typeof GUIDE_PAGES)[number];

export const GUIDE_DIR = path.join(PROJECT_ROOT, 'docs/guide');

export const readGuidePage = (page: GuidePage | 'console.md' | 'README.md') =>
  readFileSync(path.join(GUIDE_DIR, page), 'utf8');

/** The ```sh blocks of a markdown text, in order, without their fences. */
export const shellBlocks = (markdown: string) => [...markdown.matchAll(/```sh\n([\s\S]*?)\n```/g)].map((m) => m[1]);

/** Every shell block of the guide, page after page. */
export const guideShellBlocks = () => GUIDE_PAGES.flatMap((page) => shellBlocks(readGuidePage(page)));
