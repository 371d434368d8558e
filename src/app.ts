import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import type { Config } from './config.js';
import type { DatabaseHandle } from './db/connect.js';
import { type CredentialStore, installAuth } from './http/auth.js';
import { installErrorHandling } from './http/errors.js';
import { registerOpenApi } from './http/openapi.js';
import { installValidation } from './http/validation.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { createAuthService } from './modules/auth/auth.service.js';
import { createLoginLimiter } from './modules/auth/login-limit.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { projectsRoutes } from './modules/projects/projects.routes.js';
import { createProjectsService } from './modules/projects/projects.service.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { createUsersService } from './modules/users/users.service.js';

export interface AppOptions {
  config: Config;
  database: DatabaseHandle;
  /** Where logs go (tests capture them); stdout by default. */
  logStream?: DestinationStream;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Echo a caller's x-request-id when it is sane (it ends up in logs), else make one. */
function requestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * Builds the whole HTTP API without listening: the index of the service. Tests call it with a
 * fresh database; src/server.ts calls it and listens. The caller owns the database handle.
 */
export async function buildApp({ config, database, logStream }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            ...(logStream && { stream: logStream }),
            // Fastify logs method and URL only; this is the net for anything that logs a request or body.
            redact: {
              paths: [
                'req.headers.authorization',
                'req.headers["x-cms-key"]',
                'req.headers.cookie',
                '*.password',
                '*.token',
                '*.secret',
                '*.apiKey',
                '*.key',
              ],
              censor: '[redacted]',
            },
          },
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    requestIdHeader: false,
    genReqId: requestId,
    return503OnClosing: true,
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  installErrorHandling(app);
  installValidation(app);
  await registerOpenApi(app, config.version);

  const { db } = database;
  const projects = createProjectsService(db);
  const users = createUsersService(db);
  const auth = createAuthService(db, createLoginLimiter(db), config.sessionTtlSeconds);

  const credentials: CredentialStore = {
    session: auth.resolveSession,
    publishableKey: async (key) => {
      const projectId = await projects.projectIdByApiKey(key);
      return projectId ? { projectId } : null;
    },
    // Secret API keys plug in here (issue: secret API keys and objects); until then none exist.
    secretKey: async () => null,
    role: users.roleOf,
    projectIdsOf: users.projectIdsOf,
  };
  installAuth(app, credentials);

  await app.register(healthRoutes(config.version, database.ping));
  await app.register(authRoutes(auth), { prefix: '/v1/auth' });
  await app.register(projectsRoutes(projects), { prefix: '/v1/projects' });
  await app.register(usersRoutes(users), { prefix: '/v1/users' });

  return app;
}
