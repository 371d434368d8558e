import type { FolioClient, Schemas } from '@folio/client';
import { call, folioClient } from '../api.js';
import { sameJson } from '../canonical.js';
import type { Command } from '../command.js';
import { pathIn, readJsonArgument } from '../files.js';
import { CommandError, type Io, UsageError } from '../io.js';
import type { Connection } from '../options.js';
import { count, describeError } from '../report.js';

type Component = Schemas['SyncBody']['components'][number];
type DryRun = Schemas['DryRunResult'];
type Change = DryRun['changed'][number];

/** `{ "<pageId>": [component, …] }`: the file `folio push` reads and `folio export` writes. */
export type DefinitionsFile = Record<string, Component[]>;

export const push: Command = {
  name: 'push',
  summary: 'push component definitions on purpose (POST /v1/definitions/sync, contract §11)',
  help: `Usage: folio push FILE [--dry-run] [--yes]

Pushes a schema on purpose: every page of FILE is synced with a member's session (--token) or a
write secret key (--secret-key, with --project when it covers several sites), which may change
everything, unlike the publishable key a browser holds. FILE is JSON mapping page paths to their
components, the format of definitions.json in "folio export":

  { "/": [{ "componentId": "Hero", "instanceKey": "hero",
            "fields": [{ "key": "title", "type": "text" }] }] }

Every page is checked first with a dry run, so a file with one bad page writes nothing. Then only
pages with something to create or change are synced. Definitions not in FILE are left alone.
A push that would remove fields (a component FILE lists with fewer fields than Folio has) lists them
and asks first; --yes answers for a script. Without a terminal to ask on and without --yes, it
refuses and writes nothing.

Options:
  --dry-run            print what would be created, changed and rejected; write nothing
  -y, --yes            remove the fields FILE no longer lists without asking`,
  options: { 'dry-run': { type: 'boolean' }, yes: { type: 'boolean', short: 'y' } },
  connection: 'all',
  positionals: { min: 1, max: 1 },

  async run({ values, positionals, io, connection }) {
    const file = positionals[0]!;
    const pages = definitionsFileOf(await readJsonArgument(pathIn(io.cwd, file), file), file);
    const client = memberClient(connection, 'push');
    const dryRun = values['dry-run'] === true;

    const plans: DryRun[] = [];
    const failures: string[] = [];
    for (const [pageId, components] of Object.entries(pages)) {
      try {
        plans.push(await sync(client, connection.url, pageId, components, true));
      } catch (error) {
        failures.push(`  ${pageId}: ${describeError(error).replaceAll('\n', '\n  ')}`);
      }
    }
    if (failures.length > 0) {
      io.err(`${failures.join('\n')}\n`);
      throw new CommandError(
        `${failures.length} of ${count(Object.keys(pages).length, 'page')} refused; nothing was written`,
      );
    }

    if (!dryRun) await confirmRemovals(plans, values.yes === true, io);

    const width = Math.min(40, Math.max(...plans.map((p) => p.pageId.length), 4));
    let created = 0;
    let changed = 0;
    let rejected = 0;
    for (const plan of plans) {
      if (!dryRun && (plan.created.length > 0 || plan.changed.length > 0)) {
        const result = await sync(client, connection.url, plan.pageId, pages[plan.pageId]!, false);
        plan.created = result.created;
        plan.rejected = result.rejected;
      }
      created += plan.created.length;
      changed += plan.changed.length;
      rejected += plan.rejected.length;
      io.out(`  ${plan.pageId.padEnd(width)}  ${describePlan(plan, dryRun)}\n`);
    }
    const total = `${count(created, 'definition')} ${dryRun ? 'to create' : 'created'}, ${changed} ${
      dryRun ? 'to change' : 'changed'
    }, ${rejected} rejected`;
    const pageCount = count(plans.length, 'page');
    io.out(
      dryRun
        ? `Dry run of ${pageCount}: ${total}. Nothing was written.\n`
        : `Pushed ${pageCount}: ${total}.\n`,
    );
    return 0;
  },
};

/**
 * A push that drops fields goes ahead only when someone said so: `--yes`, or "y" at the terminal.
 * Asking was chosen over refusing outright (a `--force` flag) so that a person at a terminal sees the
 * list at the moment it matters, which a dry run they never ran could not show them.
 */
async function confirmRemovals(plans: DryRun[], yes: boolean, io: Io): Promise<void> {
  const removals = plans.flatMap((plan) =>
    plan.changed.flatMap((change) => {
      const kept = new Set(change.to.fields.map((f) => f.key));
      const gone = change.from.fields.filter((f) => !kept.has(f.key)).map((f) => f.key);
      return gone.length > 0 ? [`  ${plan.pageId} ${change.instanceKey}: ${gone.join(', ')}`] : [];
    }),
  );
  if (removals.length === 0 || yes) return;
  io.err(`This push removes fields that FILE no longer lists:\n${removals.join('\n')}\n`);
  if (!io.ask) {
    throw new UsageError(
      'it would remove fields, and there is no terminal to ask on; nothing was written',
      'Add --yes to remove them (e.g. in a script), or --dry-run to see the whole plan.',
    );
  }
  if (!(await io.ask('Remove them?'))) throw new CommandError('nothing was written');
}

/** The client of a member's session (with the key, when given) or of a secret key. */
export function memberClient(connection: Connection, command: string): FolioClient {
  if (connection.secretKey) {
    return folioClient(connection.url, { secretKey: connection.secretKey, projectId: connection.project });
  }
  if (connection.token) {
    return folioClient(connection.url, {
      session: connection.token,
      publishableKey: connection.key,
      projectId: connection.project,
    });
  }
  throw new UsageError(
    `${command} needs a member's session (--token or FOLIO_TOKEN; "folio login" gives one) or a write secret key (--secret-key or FOLIO_SECRET_KEY)`,
  );
}

async function sync(
  client: FolioClient,
  url: string,
  pageId: string,
  components: Component[],
  dryRun: boolean,
): Promise<DryRun> {
  const result = await call(url, `sync the definitions of ${pageId}`, () =>
    client.POST('/v1/definitions/sync', { params: { query: { dryRun } }, body: { pageId, components } }),
  );
  return 'changed' in result ? result : { ...result, changed: [] };
}

export function definitionsFileOf(value: unknown, shown: string): DefinitionsFile {
  const ok =
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Object.values(value).every((components) => Array.isArray(components));
  if (!ok) {
    throw new UsageError(
      `${shown} must map page paths to arrays of components: { "/": [{ "componentId", "instanceKey", "fields" }] }`,
    );
  }
  return value as DefinitionsFile;
}

function describePlan(plan: DryRun, dryRun: boolean): string {
  const parts: string[] = [];
  if (plan.created.length > 0) parts.push(`${dryRun ? 'create' : 'created'} ${plan.created.join(', ')}`);
  for (const change of plan.changed) {
    parts.push(`${dryRun ? 'change' : 'changed'} ${change.instanceKey} (${describeChange(change)})`);
  }
  for (const r of plan.rejected) parts.push(`rejected ${r.instanceKey}: ${r.reason}`);
  return parts.length > 0 ? parts.join('; ') : 'unchanged';
}

/**
 * A change in words: `+key: type`, `-key: type`, `key: old → new` for a new type, `key: type
 * (options)` when only its options or nested declarations differ (contract §13: a changed nested field
 * is a change). Declarations are compared whole, as the server does.
 */
export function describeChange({ from, to }: Change): string {
  const parts: string[] = [];
  if (from.componentId !== to.componentId) parts.push(`componentId ${from.componentId} → ${to.componentId}`);
  const before = new Map(from.fields.map((f) => [f.key, f]));
  const after = new Map(to.fields.map((f) => [f.key, f]));
  for (const [key, field] of after) {
    const was = before.get(key);
    if (was === undefined) parts.push(`+${key}: ${field.type}`);
    else if (was.type !== field.type) parts.push(`${key}: ${was.type} → ${field.type}`);
    else if (!sameJson(was, field)) parts.push(`${key}: ${field.type} (options)`);
  }
  for (const [key, field] of before) if (!after.has(key)) parts.push(`-${key}: ${field.type}`);
  return parts.length > 0 ? parts.join(', ') : 'field order';
}
