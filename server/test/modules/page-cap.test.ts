import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDb } from '../helpers/app.js';
import { newSite, sync } from '../helpers/content.js';
import { bearer, call } from '../helpers/factories.js';

const TEXT = { componentId: 'Text', instanceKey: 'text', fields: [{ key: 'body', type: 'text' }] };

/** CMS_MAX_PAGES_PER_PROJECT (default 20,000: definitions.test.ts fills a project to it). */
describeEachDb(
  'CMS_MAX_PAGES_PER_PROJECT',
  (ctx) => {
    it('a sync of one page more than the cap is a 409 with details.limit; a page freed makes room', async () => {
      const site = await newSite(ctx.app);
      for (const pageId of ['/', '@site', '/about']) await sync(ctx.app, site, pageId, [TEXT]);
      const over = await call(ctx.app, {
        method: 'POST',
        url: '/v1/definitions/sync',
        headers: site.key,
        payload: { pageId: '/fourth', components: [TEXT] },
      });
      assert.equal(over.status, 409);
      assert.equal(over.body.error.code, 'conflict');
      assert.equal(over.body.error.details.limit, 3);
      // An existing page still syncs; another project has its own count.
      await sync(ctx.app, site, '/about', [TEXT, { ...TEXT, instanceKey: 'more' }]);
      await sync(ctx.app, await newSite(ctx.app), '/fourth', [TEXT]);
      // Deleting a page frees its place.
      const deleted = await call(ctx.app, {
        method: 'DELETE',
        url: `/v1/pages/${encodeURIComponent('/about')}`,
        headers: { ...site.key, ...bearer(site.admin.token) },
      });
      assert.equal(deleted.status, 200);
      await sync(ctx.app, site, '/fourth', [TEXT]);
    });
  },
  { env: { CMS_MAX_PAGES_PER_PROJECT: '3' } },
);
