import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The dashboard is served by Folio at /admin (server/src/modules/dashboard), so every asset URL starts
 * there. `npm run dev` proxies the API to a running Folio (FOLIO_URL, default http://127.0.0.1:3000),
 * so the browser talks to one origin in development as it does in production.
 */
const folio = process.env.FOLIO_URL ?? 'http://127.0.0.1:3000';

export default defineConfig({
  base: '/admin/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    // No inline modulepreload polyfill: the CSP allows no inline script, and every browser we
    // support has modulepreload.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
    // The budget that matters is the gzipped JavaScript of the first load (bench/bundle-size.mjs:
    // at most 250 KB); the main chunk is above Vite's default warning of 500 KB before compression.
    chunkSizeWarningLimit: 800,
  },
  server: {
    proxy: {
      '/v1': folio,
      '/media': folio,
      '/health': folio,
    },
  },
});
