import { createRequire } from 'node:module';

/** The package version, read from package.json next to dist/ and src/. */
export const VERSION: string = (createRequire(import.meta.url)('../package.json') as { version: string }).version;
