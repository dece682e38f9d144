import { fileURLToPath } from 'node:url';

/** The repository root, where functions/ and package-lock.json live. */
export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));
