/**
 * The site page of the visual-editing test (bundled by the test, loaded by Chromium): the test's Hero
 * under a FolioProvider, with no code for the editor. Config in the URL's fragment.
 */
import { createFolio } from '@folio/sdk';
import { createRoot } from 'react-dom/client';
import { FolioProvider } from '../../src/index.js';
import { Hero } from '../components.js';

const config = JSON.parse(decodeURIComponent(location.hash.slice(1))) as {
  url: string;
  key: string;
  editorOrigin: string;
};
const { siteFetch } = window as unknown as { siteFetch: (request: Request) => Promise<Response> };
const folio = createFolio({ ...config, fetch: siteFetch });
createRoot(document.getElementById('root') as HTMLElement).render(
  <FolioProvider folio={folio} pageId="/">
    <Hero />
  </FolioProvider>,
);
