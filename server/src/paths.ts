/**
 * The server package's directory (server/), for the files it reads beside its code (docs/api.md).
 * This file sits one level below it in every form the code runs in: src/paths.ts under tsx,
 * dist/paths.js compiled, and inside the dist/server.js and dist/worker.js bundles (scripts/bundle.ts),
 * where import.meta.url is the bundle's own. A module deeper down (src/http/) cannot say `../../`:
 * in a bundle it is no longer two levels deep.
 */
export const packageRoot = new URL('..', import.meta.url);
