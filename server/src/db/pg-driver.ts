import type pg from 'pg';

type Pg = typeof pg;
let loading: Promise<Pg> | undefined;

/**
 * node-postgres, loaded on first use, so a server on SQLite never evaluates it. Why (issue 13): on
 * Node 20, loading `pg` also loads Node's fetch implementation (pg probes for Cloudflare Workers by
 * constructing a `Response`), together ~75 ms of a 420 ms start. scripts/bundle.ts answers that
 * probe for the built server on PostgreSQL too.
 */
export function loadPg(): Promise<Pg> {
  loading ??= import('pg').then(({ default: driver }) => {
    // COUNT(*) and BIGINT come back from pg as strings by default; our counts fit in a double.
    driver.types.setTypeParser(20, (value) => Number.parseInt(value, 10));
    return driver;
  });
  return loading;
}
