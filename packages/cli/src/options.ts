import type { ParseArgsConfig } from 'node:util';
import { type Io, UsageError } from './io.js';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;
export type Values = Record<string, string | boolean | undefined>;

/** Where Folio runs and who is asking: each from its flag, else its environment variable. */
export interface Connection {
  url: string;
  /** The publishable key, `cms_pk_…` (FOLIO_KEY). */
  key?: string;
  /** A secret API key, `cms_sk_…` (FOLIO_SECRET_KEY). */
  secretKey?: string;
  /** A session token from `folio login` or `folio create-project` (FOLIO_TOKEN). */
  token?: string;
  /** The project, when the credential covers several (FOLIO_PROJECT; sent as x-cms-project-id). */
  project?: string;
}

export const DEFAULT_URL = 'http://127.0.0.1:3000';

export const CONNECTION_OPTIONS = {
  url: { type: 'string' },
  key: { type: 'string' },
  'secret-key': { type: 'string' },
  token: { type: 'string' },
  project: { type: 'string' },
} satisfies OptionSpec;

export const URL_HELP = `  --url URL            Folio's address (FOLIO_URL; default ${DEFAULT_URL})`;

export const CONNECTION_HELP = `Connection (each flag falls back to its environment variable):
${URL_HELP}
  --key KEY            the project's publishable key, cms_pk_… (FOLIO_KEY)
  --secret-key KEY     a secret API key, cms_sk_… (FOLIO_SECRET_KEY)
  --token TOKEN        a session token from "folio login" (FOLIO_TOKEN)
  --project ID         the project, when the credential covers several (FOLIO_PROJECT)`;

export function connectionOf(values: Values, env: Io['env']): Connection {
  const pick = (flag: string, variable: string): string | undefined => {
    const value = values[flag];
    if (typeof value === 'string' && value !== '') return value;
    const fromEnv = env[variable];
    return fromEnv === undefined || fromEnv === '' ? undefined : fromEnv;
  };
  const url = pick('url', 'FOLIO_URL') ?? DEFAULT_URL;
  if (!/^https?:\/\/[^/]/.test(url)) {
    throw new UsageError(`--url must be an http(s) address, got "${url}"`);
  }
  return {
    url: url.replace(/\/+$/, ''),
    key: pick('key', 'FOLIO_KEY'),
    secretKey: pick('secret-key', 'FOLIO_SECRET_KEY'),
    token: pick('token', 'FOLIO_TOKEN'),
    project: pick('project', 'FOLIO_PROJECT'),
  };
}

/** A string option's value, or undefined (flags only; parseArgs already checked the type). */
export const stringOf = (values: Values, name: string): string | undefined => {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
};

/** A required string option: its flag, else `variable` from the environment, else a usage error. */
export function required(values: Values, name: string, env?: { io: Io; variable: string }): string {
  const value = stringOf(values, name) ?? (env ? env.io.env[env.variable] : undefined);
  if (value === undefined || value === '') {
    throw new UsageError(`--${name} is required${env ? ` (or ${env.variable})` : ''}`);
  }
  return value;
}
