import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '#infra/projectRoot';
import { imports, target } from '#test/support/importGraph';
import { filesUnder } from '#test/support/projectFiles';

/**
 * Imports run down the layers, from the bottom up: a module imports its own layer and the layers
 * below it, never one above. Nothing imports `test/`.
 */
const LAYERS = [
  // The root of shared/ (ids, json, graphemes, maps, dictionary, host names, slugs) and the configuration: leaves.
  { name: 'shared root', files: /^shared\/[^/]+\.ts$/ },
  { name: 'config', files: /^shared\/config\// },
  { name: 'observability', files: /^shared\/observability\// },
  { name: 'adapters', files: /^shared\/adapters\// },
  { name: 'store', files: /^shared\/store\// },
  // One folder per chat platform, its registry and the contract they share (shared/platforms/contract.ts):
  // a platform is handed the moderation core's services (ModerationCore), the core finds it through the registry.
  { name: 'platforms', files: /^shared\/platforms\// },
  { name: 'domain', files: /^shared\/domain\// },
  { name: 'schemas', files: /^shared\/schemas\// },
  { name: 'http', files: /^shared\/http\// },
  { name: 'mcp', files: /^shared\/mcp\// },
  { name: 'functions', files: /^functions\// },
  // The stack reads the route and function tables; no runtime code imports it.
  { name: 'infra', files: /^infra\// },
  { name: 'bin', files: /^bin\// },
  { name: 'test', files: /^test\// },
] as const;
type Layer = (typeof LAYERS)[number]['name'];

const rank = (file: string): number => LAYERS.findIndex((layer) => layer.files.test(file));

/** The zod set-up imports nothing of ours, so any layer may use it (checked below). */
const ZOD_SETUP = 'shared/zod.ts';

/**
 * A platform refuses what it cannot do (an undo of an item it never acted on) with the one error
 * hierarchy of the rules, which imports nothing of ours (checked below), so allowing it lets nothing else in.
 */
const DOMAIN_ERRORS = 'shared/domain/errors.ts';
const MAY_THROW_DOMAIN_ERRORS: Layer[] = ['platforms'];

/** Store and adapters may name the domain's types (an import the compiler erases), never run its code. */
const TYPES_FROM_ABOVE: [Layer, Layer][] = [
  ['store', 'domain'],
  ['adapters', 'domain'],
  ['platforms', 'domain'],
];

/**
 * The imports that still run back up, each to be turned around; listed so that no new one joins them.
 * `from` and `to` are path prefixes. An entry nothing matches any more fails the last test: delete it.
 */
const STILL_RUNS_BACK_UP: { from: string; to: string; why: string }[] = [];

const layerOf = (file: string): Layer | undefined => LAYERS[rank(file)]?.name;

/** The imports of `files` (path -> source) that run up the layers, as `file -> target`. */
function upwardImports(files: Record<string, string>): string[] {
  return Object.entries(files).flatMap(([file, source]) =>
    imports(source).flatMap(({ specifier, typeOnly }) => {
      const to = target(file, specifier);
      if (to === undefined || to === ZOD_SETUP || rank(to) <= rank(file)) return [];
      const from = layerOf(file);
      const into = layerOf(to);
      if (to === DOMAIN_ERRORS && from !== undefined && MAY_THROW_DOMAIN_ERRORS.includes(from)) return [];
      if (typeOnly && TYPES_FROM_ABOVE.some(([a, b]) => a === from && b === into)) return [];
      return [`${file} -> ${to}`];
    }),
  );
}

const isKnown = (arrow: string) => {
  const [from, to] = arrow.split(' -> ');
  return STILL_RUNS_BACK_UP.some((known) => from.startsWith(known.from) && to.startsWith(known.to));
};

/** The folder of a platform (`shared/platforms/<type>/`) a file is in, if any. */
const platformFolder = (file: string) => /^shared\/platforms\/([^/]+)\//.exec(file)?.[1];

/** The imports of `files` from one platform's folder into another's, as `file -> target`. */
const platformCrossings = (files: Record<string, string>): string[] =>
  Object.entries(files).flatMap(([file, source]) => {
    const own = platformFolder(file);
    if (own === undefined) return [];
    return imports(source)
      .map((i) => target(file, i.specifier))
      .filter((to): to is string => to !== undefined && platformFolder(to) !== undefined && platformFolder(to) !== own)
      .map((to) => `${file} -> ${to}`);
  });

const read = (files: string[]) =>
  Object.fromEntries(files.map((f) => [f, readFileSync(path.join(PROJECT_ROOT, f), 'utf8')]));

const project = () => read(['shared', 'functions', 'infra', 'bin'].flatMap((dir) => filesUnder(dir)));

/**
 * The imports of a platform's folder by the moderation core (the domain), as `file -> target`: the core
 * finds a platform only through the registry (shared/platforms/registry.ts and the tables beside it).
 */
const coreIntoPlatformFolders = (files: Record<string, string>): string[] =>
  Object.entries(files).flatMap(([file, source]) =>
    layerOf(file) !== 'domain'
      ? []
      : imports(source)
          .map((i) => target(file, i.specifier))
          .filter((to): to is string => to !== undefined && platformFolder(to) !== undefined)
          .map((to) => `${file} -> ${to}`),
  );

describe('import direction between the layers', () => {
  it('every source file is in a layer', () => {
    const files = Object.keys(project());
    expect(files.length).toBeGreaterThan(300);
    expect(files.filter((f) => rank(f) < 0)).toEqual([]);
  });

  it('no import runs up the layers, but for the ones listed to be turned around', () => {
    expect(upwardImports(project()).filter((arrow) => !isKnown(arrow))).toEqual([]);
  });

  it('each arrow listed as running back up still does (delete the ones turned around)', () => {
    const arrows = upwardImports(project());
    const stale = STILL_RUNS_BACK_UP.filter(
      (known) =>
        !arrows.some((a) => a.split(' -> ')[0].startsWith(known.from) && a.split(' -> ')[1].startsWith(known.to)),
    );
    expect(stale).toEqual([]);
  });

  it('the layers do build on each other (the direction is not just empty)', () => {
    const sources = Object.entries(project());
    const importsInto = (from: Layer, into: Layer) =>
      sources.some(
        ([file, source]) =>
          layerOf(file) === from && imports(source).some((i) => layerOf(target(file, i.specifier) ?? '') === into),
      );
    expect(importsInto('schemas', 'domain')).toBe(true);
    expect(importsInto('domain', 'store')).toBe(true);
    expect(importsInto('functions', 'http')).toBe(true);
  });

  it('the zod set-up and the domain errors import nothing of ours, so allowing them lets nothing else in', () => {
    for (const allowed of [ZOD_SETUP, DOMAIN_ERRORS])
      expect(
        imports(readFileSync(path.join(PROJECT_ROOT, allowed), 'utf8')).filter(
          (i) => i.specifier.startsWith('#') || i.specifier.startsWith('.'),
        ),
        allowed,
      ).toEqual([]);
  });

  it('a platform folder imports no other platform folder', () => {
    expect(platformCrossings(project())).toEqual([]);
    expect(
      platformCrossings({
        'shared/platforms/crisp/calls.ts': "import { MUTE_SECONDS } from '#shared/platforms/telegram/calls';",
        'shared/platforms/crisp/hooks.ts':
          "import { crispNote } from './calls';\nimport type { X } from '../contract';",
      }),
    ).toEqual(['shared/platforms/crisp/calls.ts -> shared/platforms/telegram/calls.ts']);
  });

  it('the domain reaches a platform folder only through the registry', () => {
    expect(coreIntoPlatformFolders(project())).toEqual([]);
    expect(
      coreIntoPlatformFolders({
        'shared/domain/moderation/a.ts': "import { syncAutomod } from '#shared/platforms/discord/automod';",
        'shared/domain/moderation/b.ts':
          "import { PLATFORM_WORK } from '#shared/platforms/registry';\nimport type { T } from '#shared/platforms/x/platform';",
        'functions/moderation/handler.ts': "import { handleCrispHook } from '#shared/platforms/crisp/hooks';",
      }),
    ).toEqual([
      'shared/domain/moderation/a.ts -> shared/platforms/discord/automod.ts',
      'shared/domain/moderation/b.ts -> shared/platforms/x/platform.ts',
    ]);
  });

  it('catches each way of importing the wrong way', () => {
    expect(
      upwardImports({
        'shared/domain/jobs/a.ts': "import { x } from '#shared/schemas/jobs';\nimport * as z from '#shared/zod';",
        'shared/domain/jobs/b.ts': "export { y } from '../../schemas/growth';",
        'shared/domain/growth/c.ts': "const m = await import('#shared/http/errors');",
        'shared/domain/growth/d.ts': "import type { T } from './plan';\nimport { z } from 'zod/mini';",
        'shared/store/e.ts': "import type { Rules } from '#shared/domain/moderation/rules';",
        'shared/store/f.ts': "import { type Rules, defaults } from '#shared/domain/moderation/rules';",
        'shared/adapters/g.ts': "import { type Row } from '#shared/store/rows';",
        'functions/h/handler.ts': "import { FUNCTIONS } from '#infra/functionCatalog';",
        'bin/i.ts': "import '#test/support/standIn';",
        'shared/platforms/j/poll.ts':
          "import type { Decision } from '#shared/domain/moderation/engine';\nimport { UnprocessableError } from '#shared/domain/errors';",
        'shared/platforms/k/poll.ts': "import { moderateEvents } from '#shared/domain/moderation/moderation';",
        'shared/store/l.ts': "import { PLATFORMS } from '#shared/platforms/registry';",
      }),
    ).toEqual([
      'shared/domain/jobs/a.ts -> shared/schemas/jobs.ts',
      'shared/domain/jobs/b.ts -> shared/schemas/growth.ts',
      'shared/domain/growth/c.ts -> shared/http/errors.ts',
      'shared/store/f.ts -> shared/domain/moderation/rules.ts',
      'shared/adapters/g.ts -> shared/store/rows.ts',
      'functions/h/handler.ts -> infra/functionCatalog.ts',
      'bin/i.ts -> test/support/standIn.ts',
      'shared/platforms/k/poll.ts -> shared/domain/moderation/moderation.ts',
      'shared/store/l.ts -> shared/platforms/registry.ts',
    ]);
  });
});
