import { Site } from '../components/site';
import { bakedPage } from '../lib/baked';

/**
 * Prerendered by `next build`: from the snapshot the build baked (`npm run build:site` bakes first),
 * or, without one, as the shell the browser fills from Folio. In development, rendered per request.
 */
export default async function HomePage() {
  return (
    <main>
      <Site pageId="/" baked={await bakedPage('/')} />
    </main>
  );
}
