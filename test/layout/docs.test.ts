import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GUIDE_DIR, GUIDE_PAGES, guideShellBlocks, shellBlocks } from '#test/support/guide';
import { PROJECT_ROOT } from '#infra/projectRoot';

/*
 * The README is the front door (what the service is, the two commands, a taste, links); the rest lives in docs/ and
 * CONTRIBUTING.md. These checks keep it that way: the README stays short, the guide's page list (the order the
 * walkthrough test runs them in) is the folder, every link between the files resolves, and the README's taste is
 * lines the walkthrough runs.
 */
const read = (file: string) => readFileSync(path.join(PROJECT_ROOT, file), 'utf8');

const markdownFiles = (dir: string): string[] =>
  readdirSync(path.join(PROJECT_ROOT, dir)).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(path.join(PROJECT_ROOT, file)).isDirectory()) return markdownFiles(file);
    return name.endsWith('.md') ? [file] : [];
  });
const DOCS = ['README.md', 'CONTRIBUTING.md', ...markdownFiles('docs')];

/** The text outside fenced blocks and code spans, where a `[text](target)` is a link. */
const prose = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchor = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
const anchorsOf = (markdown: string) =>
  new Set([...prose(markdown).matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchor(m[1].trim())));

describe('the README and docs/', () => {
  it('the README is a front door of at most 250 lines', () => {
    expect(read('README.md').split('\n').length).toBeLessThanOrEqual(250);
  });

  it("the guide's page list, the order the walkthrough runs, is every numbered page of docs/guide", () => {
    const numbered = readdirSync(GUIDE_DIR)
      .filter((name) => /^\d\d-.*\.md$/.test(name))
      .sort();
    expect([...GUIDE_PAGES]).toEqual(numbered);
    const index = read('docs/guide/README.md');
    expect(GUIDE_PAGES.filter((page) => !index.includes(`](${page})`))).toEqual([]);
  });

  it('every relative link between them resolves, to the file and to its heading', () => {
    const broken: string[] = [];
    for (const file of DOCS) {
      for (const [, target] of prose(read(file)).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target)) continue;
        const [relative, hash] = target.split('#');
        const resolved = relative ? path.join(path.dirname(file), relative) : file;
        if (!existsSync(path.join(PROJECT_ROOT, resolved))) broken.push(`${file}: ${target}`);
        else if (hash !== undefined && resolved.endsWith('.md') && !anchorsOf(read(resolved)).has(hash))
          broken.push(`${file}: ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("the README's taste is lines of the guide's walkthrough, in its order, so the walkthrough test runs them", () => {
    const taste = shellBlocks(read('README.md'))
      .filter((block) => block.includes('$API'))
      .flatMap((block) => block.split('\n'))
      .filter((line) => line.trim() !== '');
    expect(taste.length).toBeGreaterThanOrEqual(10);
    const walkthrough = guideShellBlocks().flatMap((block) => block.split('\n'));
    let at = 0;
    const notRun = taste.filter((line) => {
      const found = walkthrough.indexOf(line, at);
      if (found < 0) return true;
      at = found + 1;
      return false;
    });
    expect(notRun).toEqual([]);
  });
});
