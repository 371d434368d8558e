import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import type { Config } from './config.js';
import type { DatabaseHandle } from './db/connect.js';
import type { DbOrTx } from './db/database.js';
import { type ChangeBus, createChangeBus, transactionWithChanges } from './db/dialect/change-bus.js';
import { migrationsApplied } from './db/migrate.js';
import { type CredentialStore, installAuth } from './http/auth.js';
import { installCors } from './http/cors.js';
import { installErrorHandling } from './http/errors.js';
import { createFastReads } from './http/fast-reads.js';
import { clientErrorHandler, frameworkErrors, MAX_PARAM_LENGTH } from './http/framing.js';
import { createLazySchemas, lazySerializerFactory } from './http/lazy-schemas.js';
import { installAccessLog, type LogSink, loggerOptions } from './http/logging.js';
import { registerOpenApi } from './http/openapi.js';
import { untrustedForwardingWarning } from './http/proxy-warning.js';
import { requestId } from './http/request-id.js';
import { installRequestMetrics, RequestSeries } from './http/request-metrics.js';
import { installSiteBodyLimit } from './http/site-body-limit.js';
import { installValidation } from './http/validation.js';
import { activityRoutes, createActivityService } from './modules/activity/index.js';
import { apiKeysRoutes, createApiKeysService } from './modules/api-keys/index.js';
import {
  authRoutes,
  createAuthService,
  createLoginLimiter,
  issueSetPasswordLink,
} from './modules/auth/index.js';
import {
  contentRoutes,
  contentTargets,
  createContentService,
  createEntrySearch,
  createPagesService,
  entriesRoutes,
  entryDeletionRoutes,
  entryStubs,
  localesHoldingValues,
  pagesRoutes,
  publishedEntriesForSnapshot,
  snapshotEntriesIn,
} from './modules/content/index.js';
import { dashboardRoutes } from './modules/dashboard/index.js';
import {
  createDefinitionsService,
  declarationsOf,
  definitionsRoutes,
  pageDefinitions,
} from './modules/definitions/index.js';
import { createDeploysService, deploysRoutes } from './modules/deploys/index.js';
import {
  createMetrics,
  createReadiness,
  healthRoutes,
  type Metrics,
  metricsRoutes,
} from './modules/health/index.js';
import { createLiveHub, liveRoutes } from './modules/live/index.js';
import {
  createMediaService,
  createMediaStorage,
  createVariantMaker,
  mediaRoutes,
  mediaServeRoutes,
} from './modules/media/index.js';
import { createObjectsService, objectsRoutes, publishedObjectsForSnapshot } from './modules/objects/index.js';
import {
  createPreviewService,
  endPreviewTokensOf,
  endProjectPreviewTokens,
  previewRoutes,
} from './modules/preview/index.js';
import { createProjectsService, createSiteCache, projectsRoutes } from './modules/projects/index.js';
import { createWindowLimiter } from './modules/rate-limits/index.js';
import { countDue, createSchedulesService, schedulesRoutes } from './modules/schedules/index.js';
import { createSnapshotService, snapshotRoutes } from './modules/snapshot/index.js';
import {
  createInvitationsService,
  createUsersService,
  invitationsRoutes,
  usersRoutes,
} from './modules/users/index.js';
import { createWebhooksService, webhooksRoutes } from './modules/webhooks/index.js';
import { outbox, outboxBacklog } from './outbox/index.js';
import { sealStoredSecrets } from './secrets-at-rest.js';
import { unavailable } from './shared/errors.js';
import { createHookClient } from './shared/hook-http.js';
import { SecretBoxError } from './shared/secret-box.js';
import { openSecretBox } from './shared/secret-keys.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * This app's change bus (src/db/dialect/change-bus.ts). The server hands it to the worker it runs
     * beside the app, so scheduled publishes drop this app's caches and reach its live streams (on
     * SQLite delivery is in-process only).
     */
    readonly changes: ChangeBus;
    /**
     * Compiles every route schema now (they compile on first use, src/http/lazy-schemas.ts) and checks
     * each validator schema against the JSON Schema meta-schema (src/http/validation.ts); throws the
     * first that fails. For tests, which keep the guarantee a start used to give.
     */
    compileAllSchemas(): void;
    /**
     * Resolves once the writes this app makes off the request path have finished (an API key's
     * lastUsedAt, written after the response). Closing the app waits for them; a test waits for them
     * to see what a request wrote, or that it wrote nothing, without sleeping.
     */
    settled(): Promise<void>;
  }
}

export interface AppOptions {
  config: Config;
  database: DatabaseHandle;
  /** Where logs go (tests capture them); stdout by default. */
  logStream?: LogSink;
  /**
   * The process's metrics (GET /metrics). src/server.ts passes the one its in-process worker also
   * counts into; without it the app makes its own. One app per Metrics: the app registers its series.
   */
  metrics?: Metrics;
  /** The clock of the limits counted in fixed windows (tests set the time); Date.now by default. */
  now?: () => number;
}

/**
 * Builds the whole HTTP API without listening: the index of the service. Tests call it with a
 * fresh database; src/server.ts calls it and listens. The caller owns the database handle.
 */
export async function buildApp({
  config,
  database,
  logStream,
  metrics = createMetrics(),
  now = Date.now,
}: AppOptions): Promise<FastifyInstance> {
  const logging = loggerOptions(config, logStream);
  // Cached visitor reads are answered before Fastify sees them (src/http/fast-reads.ts); the fast
  // path needs the caches built below, so the server starts with one that declines.
  let fastRead: (req: IncomingMessage, res: ServerResponse) => boolean = () => false;
  // Set once the logger exists (below); the server's handler calls it for every request.
  let checkForwarding: (req: IncomingMessage) => void = () => {};
  const schemas = createLazySchemas();
  const app = Fastify({
    schemaController: { compilersFactory: { buildSerializer: lazySerializerFactory(schemas) } },
    serverFactory: (handler) => {
      // A client gets headersTimeoutMs for its headers and requestTimeoutMs for the whole request,
      // body and uploads included; then Node answers 408 and closes the socket. Without them a few
      // hundred connections that trickle a request in could hold sockets open indefinitely. Expiry is
      // checked every connectionsCheckingInterval (Node's default 30 s would stretch short limits).
      const server = createServer(
        { connectionsCheckingInterval: Math.min(config.headersTimeoutMs / 2, 5_000) },
        (req, res) => {
          checkForwarding(req);
          if (!fastRead(req, res)) handler(req, res);
        },
      );
      server.keepAliveTimeout = 72_000; // Fastify's own default, which it sets only on servers it makes
      server.headersTimeout = config.headersTimeoutMs;
      server.requestTimeout = config.requestTimeoutMs;
      return server;
    },
    logger: logging.logger,
    // Fastify's own two lines per request are off; installAccessLog writes one (see http/logging.ts).
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    requestIdHeader: false,
    genReqId: requestId,
    // Fastify's own 503 while closing has none of the envelope, request id or Retry-After: the
    // onRequest hook below answers instead.
    return503OnClosing: false,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors,
    clientErrorHandler,
  }).withTypeProvider<TypeBoxTypeProvider>();

  // A request that reaches a closing app (on a connection busy when closing began: new ones are
  // refused) is told to go elsewhere, and its connection is closed after the answer.
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    if (!closing) return done();
    reply.header('connection', 'close');
    done(unavailable(1, 'This server is shutting down. Try again.'));
  });
  const accessLog = installAccessLog(app, logging);
  checkForwarding = untrustedForwardingWarning(config.trustProxy, app.log);
  // Before any route is registered: each route gets its own recording hook (src/http/request-metrics.ts).
  const requests = new RequestSeries();
  const unmatched = installRequestMetrics(app, requests);
  installErrorHandling(app, unmatched);
  const validation = installValidation(app, schemas);
  app.decorate('compileAllSchemas', () => {
    schemas.compileAll();
    validation.checkSchemas();
  });
  await registerOpenApi(app, config.version);

  const { db } = database;
  // Cross-instance cache invalidation (LISTEN/NOTIFY on PostgreSQL). Listening starts when the app
  // is ready, so caches are live before the first request; closing the app closes its connection.
  const changes = createChangeBus(database.config, (err) => app.log.warn({ err }, 'change bus connection'));
  app.addHook('onReady', async () => changes.started());
  app.addHook('onClose', async () => changes.close());
  app.decorate('changes', changes);
  const sites = createSiteCache(db, changes);
  // Secrets at rest: the key is CMS_ENCRYPTION_KEY, else a key file in CMS_DATA_DIR made now.
  const { box: secrets, keyFileCreated } = openSecretBox(config);
  if (keyFileCreated) {
    app.log.warn(
      `No CMS_ENCRYPTION_KEY: created the key ${keyFileCreated} for webhook and deploy hook secrets. Back it up; several instances on one database must share one CMS_ENCRYPTION_KEY instead.`,
    );
  }
  // Seals secrets still in clear (or under the previous key) before anything is served. A secret no
  // key opens stops the start; a database that cannot be reached does not (it shows in /health,
  // and the next start seals what is left; until then rows in clear are read as they are).
  app.addHook('onReady', async () => {
    try {
      const { sealed } = await sealStoredSecrets(db, secrets);
      if (sealed > 0) app.log.info(`Encrypted ${sealed} stored secrets with key id ${secrets.keyId}`);
    } catch (err) {
      if (err instanceof SecretBoxError) throw err;
      app.log.warn({ err }, 'secrets: could not seal stored secrets at start');
    }
  });
  // A preview token ends with its creator's access and with the key (contract §16): the projects and
  // users modules end them in the same transaction as the change, through the preview module.
  const projects = createProjectsService(db, outbox, changes, {
    allowPrivate: config.allowPrivateHookTargets,
    secrets,
    endPreviewTokens: endProjectPreviewTokens,
    localesHoldingValues,
  });
  const users = createUsersService(db, outbox, changes, {
    issue: issueSetPasswordLink,
    endPreviewTokens: endPreviewTokensOf,
  });
  // Sign-in, set-password links and invitation accepts share one limiter (contract §23).
  const loginLimiter = createLoginLimiter(db);
  const auth = createAuthService(db, outbox, loginLimiter, config.sessionTtlSeconds, {
    // A new password ends the preview tokens the account created, in every project, on every instance
    // (contract §17). Run right after the password's own transaction commits: the window between the
    // two is one statement, and a token left by a crash there still ends with its own expiry.
    onPasswordChanged: async (accountId) => {
      await transactionWithChanges(db, changes, (trx, changed) =>
        endPreviewTokensOf(trx, changed, accountId),
      );
    },
  });
  const apiKeys = createApiKeysService(db, outbox, {
    onTouchError: (err) => app.log.warn({ err }, 'could not record an API key as used'),
  });
  const preview = createPreviewService(db, outbox, changes);
  app.decorate('settled', () => apiKeys.settled());
  app.addHook('onClose', async () => apiKeys.settled());

  const credentials: CredentialStore = {
    session: auth.resolveSession,
    // Cached in memory; rotate-key and PATCH project drop it on every instance (change bus).
    publishableKey: sites.byKey,
    secretKey: apiKeys.resolve,
    role: users.roleOf,
    projectIdsOf: users.projectIdsOf,
    previewToken: preview.resolve,
  };
  installAuth(app, credentials);
  // After auth: the cut needs the credential; before any route is registered (it hooks onRoute).
  installSiteBodyLimit(app);
  installCors(app, sites.byId);

  await app.register(authRoutes(auth), { prefix: '/v1/auth' });
  // Limits counted in the database (shared by every instance): project creation per client address,
  // publishable-key definitions syncs per project (contract §11).
  const projectCreateLimit = createWindowLimiter(
    db,
    {
      scope: 'project_create',
      limit: config.projectCreateLimitPerHour,
      windowMs: 3_600_000,
      message: 'Too many projects created from this address.',
    },
    now,
  );
  const syncLimit = createWindowLimiter(
    db,
    {
      scope: 'definitions_sync',
      limit: config.syncLimitPerMinute,
      windowMs: 60_000,
      message: `Too many definition syncs with the publishable key for this project (at most ${config.syncLimitPerMinute} a minute).`,
    },
    now,
  );
  await app.register(projectsRoutes(projects, projectCreateLimit), { prefix: '/v1/projects' });
  await app.register(usersRoutes(users), { prefix: '/v1/users' });
  await app.register(invitationsRoutes(createInvitationsService(db, outbox, loginLimiter)), {
    prefix: '/v1/invitations',
  });
  // Content checks values against the definitions' field types; a definitions sync creates the
  // content entries. Each module is handed what it needs of the other here, so neither imports the
  // other's repository (and they form no import cycle).
  // The project's locales come from the site cache (the projects module's, kept right by the change bus).
  const localesOf = async (reader: DbOrTx, projectId: string) =>
    (await sites.byId(projectId, reader))?.locales ?? null;
  const rulesBudgetMs = config.rulesBudgetMs;
  const content = createContentService(
    db,
    outbox,
    changes,
    { declarationsOf, localesOf, rulesBudgetMs },
    (err) => app.log.error({ err }, 'statement template mismatch: the write used a fresh statement'),
    config.resolveMaxBytes,
  );
  const definitions = createDefinitionsService(db, outbox, changes, entryStubs, {
    modeOf: projects.definitionSyncOf,
    limiter: syncLimit,
    maxPages: config.maxPagesPerProject,
    rulesBudgetMs,
  });
  await app.register(definitionsRoutes(definitions), { prefix: '/v1/definitions' });
  const snapshot = createSnapshotService(changes, {
    project: sites.byId,
    entries: (projectId) => publishedEntriesForSnapshot(db, projectId),
    entriesIn: (projectId, locales, codes) => snapshotEntriesIn(db, projectId, locales, codes),
    objects: (projectId) => publishedObjectsForSnapshot(db, projectId),
  });
  await app.register(contentRoutes(content), { prefix: '/v1/content' });
  await app.register(entriesRoutes(content, createEntrySearch(db)), { prefix: '/v1/entries' });
  // Pages as a whole (list, deletion): entries with their definitions, handed over like field types.
  const pages = createPagesService(db, outbox, changes, pageDefinitions, { declarationsOf, localesOf });
  await app.register(entryDeletionRoutes(pages), { prefix: '/v1/content' });
  await app.register(pagesRoutes(pages), { prefix: '/v1/pages' });
  await app.register(snapshotRoutes(snapshot), { prefix: '/v1/snapshot' });
  await app.register(previewRoutes(preview), { prefix: '/v1/preview-tokens' });
  await app.register(activityRoutes(createActivityService(db)), { prefix: '/v1/activity' });
  // Scheduled publishing: the routes check a schedule's target with content's help (handed over like
  // the page definitions above); the worker runs them (src/jobs/handlers.ts wires what it needs).
  await app.register(
    schedulesRoutes(
      createSchedulesService(db, outbox, contentTargets(pageDefinitions), (id) => localesOf(db, id)),
    ),
    {
      prefix: '/v1/schedules',
    },
  );
  // Live streams follow page changes on the change bus; each change loads the page once for all
  // of its streams. They end before the server closes (preClose), else close would wait on them.
  const liveLimits = {
    heartbeatMs: config.liveHeartbeatMs,
    maxStreamsPerProject: config.liveMaxStreamsPerProject,
    maxStreamsPerClient: config.liveStreamsPerClient,
    maxBufferBytes: config.liveMaxBufferBytes,
  };
  const live = createLiveHub(changes, {
    ...liveLimits,
    views: (projectId, pageId, drafts, depth, locale, fallback) =>
      content.pageViews(projectId, pageId, drafts, depth, locale, fallback),
    previewStillLive: preview.stillLive,
    log: app.log,
  });
  app.addHook('preClose', async () => live.close());
  await app.register(
    liveRoutes(live, liveLimits, (projectId) => localesOf(db, projectId)),
    { prefix: '/v1/live' },
  );
  // Reads answered before Fastify are counted under the routes that would have answered them.
  const pageReads = requests.forRoute('/v1/content/:pageId');
  const pageOk = requests.observer(pageReads, 'GET', 200);
  const pageNotModified = requests.observer(pageReads, 'GET', 304);
  const snapshotNotModified = requests.observer(requests.forRoute('/v1/snapshot'), 'GET', 304);
  fastRead = createFastReads(
    { projectIdOfKey: sites.peekProjectId, page: content.peekPage, snapshotEtag: snapshot.peekEtag },
    accessLog,
    (kind, status, seconds) =>
      (kind === 'snapshot' ? snapshotNotModified : status === 200 ? pageOk : pageNotModified)(seconds),
    () => closing,
  );

  // Webhooks: the routes send only the synchronous test ping; the worker (src/jobs/worker.ts,
  // started by server.ts or `npm run worker`) delivers everything else.
  const hookClient = createHookClient({
    timeoutMs: config.webhookTimeoutMs,
    allowPrivate: config.allowPrivateHookTargets,
  });
  app.addHook('onClose', async () => hookClient.close());
  const webhooks = createWebhooksService(db, outbox, {
    client: hookClient,
    allowPrivateTargets: config.allowPrivateHookTargets,
    leaseMs: config.workerLeaseMs,
    secrets,
  });
  await app.register(webhooksRoutes(webhooks), { prefix: '/v1/webhooks' });
  await app.register(deploysRoutes(createDeploysService(db)), { prefix: '/v1/projects' });
  await app.register(apiKeysRoutes(apiKeys), { prefix: '/v1/api-keys' });
  const objects = createObjectsService(db, outbox, changes);
  await app.register(objectsRoutes(objects), { prefix: '/v1/objects' });

  // Media bytes: a local directory or an S3-compatible bucket (CMS_STORAGE). init() clears staging
  // files a crash left behind; sweepDeletions finishes removals a crash interrupted.
  const mediaStorage = await createMediaStorage(
    config.storage,
    config.dataDir,
    config.mediaCacheBytes,
    (err) => app.log.warn({ error: (err as Error).message }, 'media storage unavailable'),
  );
  await mediaStorage.init();
  app.addHook('onClose', async () => mediaStorage.close());
  const media = createMediaService(db, outbox, mediaStorage, {
    maxBytes: config.mediaMaxBytes,
    publicUrl: config.publicUrlSet ? config.publicUrl : null,
    instanceUrl: config.publicUrl,
    cdnUrlOf: async (projectId) => (await sites.byId(projectId))?.cdnUrl ?? null,
  });
  // Housekeeping, so it never stops a start: a database that is down shows in /health instead.
  app.addHook('onReady', async () => {
    await media
      .sweepDeletions()
      .catch((err) => app.log.warn({ err }, 'media: could not finish pending removals'));
  });
  await app.register(mediaRoutes(media, config.mediaMaxBytes), { prefix: '/v1/media' });
  await app.register(mediaServeRoutes(mediaStorage, createVariantMaker(mediaStorage)));
  // The editor's web app (static files at /admin, built from the dashboard/ workspace).
  await app.register(dashboardRoutes(config.dashboardDir));

  // Operations: liveness, readiness (src/modules/health/readiness.ts) and Prometheus metrics.
  const readiness = createReadiness(
    {
      database: database.ping,
      migrations: () => migrationsApplied(db),
      changeBus: () => changes.live,
      mediaStorage: () => mediaStorage.check(),
    },
    app.log,
  );
  await app.register(healthRoutes({ version: config.version, ping: database.ping, readiness }));
  metrics.watch({
    pool: database.poolStats,
    outbox: () => outboxBacklog(db),
    schedulesDue: () => countDue(db, new Date().toISOString()),
    liveStreams: () => live.size,
    caches: () => ({
      ...sites.cacheCounts(),
      ...content.cacheCounts(),
      ...snapshot.cacheCounts(),
      ...objects.cacheCounts(),
    }),
    requests,
  });
  await app.register(metricsRoutes(metrics, config.metricsToken));

  return app;
}
