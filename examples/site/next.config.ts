import type { NextConfig } from 'next';
import { DEFAULT_LOCALE } from './lib/locales';

/**
 * One set of variables for the site and the `folio` CLI that bakes its build: FOLIO_URL and FOLIO_KEY
 * (the publishable key, public by design), inlined into the browser's code at build time. Registering
 * components on mount is for development (FOLIO_REGISTER, on by default only there): a production
 * site reads, and its schema is pushed on purpose (`folio push`), not by every visitor's browser.
 */
const folioUrl = process.env.FOLIO_URL ?? 'http://127.0.0.1:3000';

/**
 * Visual editing shows this site in an iframe of Folio's dashboard (served by Folio, at FOLIO_URL).
 * `frame-ancestors` lets that origin frame it and nobody else (clickjacking); FOLIO_EDITOR_ORIGIN names
 * the dashboard when it is served elsewhere (its dev server). Next sets no X-Frame-Options of its own.
 */
const frameAncestors = ["'self'", new URL(process.env.FOLIO_EDITOR_ORIGIN ?? folioUrl).origin].join(' ');

/**
 * `npm run build:static` exports the site as plain files (`out/en.html`, `out/fr.html`,
 * `out/fr-CA.html` and their assets), prerendered from the baked snapshot, for any static host. Told by
 * the npm script's name, so the command is the same on every shell. A static host serves no redirect
 * and no header of Next's: point `/` at `/en` and send the `frame-ancestors` policy in its own
 * configuration.
 */
const staticExport = process.env.npm_lifecycle_event === 'build:static';

const config: NextConfig = {
  reactStrictMode: true,
  ...(staticExport && { output: 'export' as const }),
  env: {
    FOLIO_URL: folioUrl,
    FOLIO_EDITOR_ORIGIN: process.env.FOLIO_EDITOR_ORIGIN ?? '',
    FOLIO_KEY: process.env.FOLIO_KEY ?? '',
    FOLIO_REGISTER: process.env.FOLIO_REGISTER ?? (process.env.NODE_ENV === 'development' ? 'true' : 'false'),
  },
  // Types are checked by `npm run typecheck` (TypeScript 5, as here); a build need not do it again.
  typescript: { ignoreBuildErrors: true },
  poweredByHeader: false,
  ...(!staticExport && {
    // Every page is in a language (`/en`, `/fr`, `/fr-CA`); the bare address opens the default one.
    async redirects() {
      return [{ source: '/', destination: `/${DEFAULT_LOCALE}`, permanent: false }];
    },
    async headers() {
      return [
        {
          source: '/:path*',
          headers: [{ key: 'Content-Security-Policy', value: `frame-ancestors ${frameAncestors}` }],
        },
      ];
    },
  }),
};

export default config;
