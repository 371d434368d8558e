import { canonicalJson } from '../../shared/canonical.js';
import { optionsPresent, withoutOptions } from './field-declarations.js';
import { type FieldDeclaration, RULE_OPTIONS } from './field-types.js';

export type { FieldDeclaration };

/**
 * What a definitions sync would do to a page, computed without touching the database (contract §11).
 * Pure, so the real sync and `?dryRun=true` share one rule and the rule has unit tests beside it.
 *
 * `full` (a member's session, a write secret key, or the publishable key in `open` mode): each sent
 * definition replaces the stored one. `additive` (the publishable key, the default mode): new
 * definitions and new fields are taken; a changed componentId, a changed field type and a field left
 * out are kept as stored and reported in `rejected`, so a public key cannot restructure live content.
 * A stored field's declaration is compared whole, nested fields included (§13: a changed nested field
 * is a change). Additive also holds back what a public key must not set (§17): the rules of a field it
 * adds to an existing definition, and every `default` (strangers must not put text into stubs a bulk
 * publish would make live); both are listed in `rejected`.
 */

export interface ComponentInput {
  componentId: string;
  instanceKey: string;
  fields: FieldDeclaration[];
}

/** A definition as compared and stored: fields in declaration order. */
export interface DefinitionShape {
  componentId: string;
  fields: FieldDeclaration[];
}

export interface StoredDefinition extends DefinitionShape {
  instanceKey: string;
}

export type SyncScope = 'full' | 'additive';

export interface SyncPlan {
  /** Definitions to write (new or changed), with what they become. */
  writes: (DefinitionShape & { instanceKey: string; isNew: boolean })[];
  /** instanceKeys of new definitions, in request order. */
  created: string[];
  /** Existing definitions that change, with what they were and become. */
  changed: { instanceKey: string; from: DefinitionShape; to: DefinitionShape }[];
  /** Parts an additive sync refused, one per part, in request order. */
  rejected: { instanceKey: string; reason: string }[];
}

/**
 * Stored form of fields: canonical JSON (keys sorted), so an identical resend compares equal. A
 * declaration of part one (`{ key, type }`) is stored exactly as before.
 */
export const fieldsJson = (fields: FieldDeclaration[]): string => canonicalJson(fields);

const declarationJson = (d: FieldDeclaration): string => canonicalJson(d);
const DEFAULT = new Set(['default']);
const RULES_AND_DEFAULT = new Set<string>([...RULE_OPTIONS, 'default']);
const AUTHORITY = "set them with a member's session or a write-key sync";

/** A field the publishable key sends, without what it may not set there; what was held back is listed. */
function heldBack(
  field: FieldDeclaration,
  drop: ReadonlySet<string>,
  instanceKey: string,
  rejected: SyncPlan['rejected'],
): FieldDeclaration {
  const present = optionsPresent(field, [...drop]);
  if (present.length === 0) return field;
  rejected.push({
    instanceKey,
    reason: `field "${field.key}" is stored without ${present.join(', ')}: the publishable key cannot set ${present.length === 1 ? 'it' : 'them'} here; ${AUTHORITY}.`,
  });
  return withoutOptions(field, drop);
}

const sameShape = (a: DefinitionShape, b: DefinitionShape) =>
  a.componentId === b.componentId && fieldsJson(a.fields) === fieldsJson(b.fields);

/** The additive merge of one sent definition into the stored one, and what it refused. */
function mergeAdditive(stored: StoredDefinition, sent: ComponentInput, rejected: SyncPlan['rejected']) {
  const { instanceKey } = sent;
  if (sent.componentId !== stored.componentId) {
    rejected.push({
      instanceKey,
      reason: `componentId stays "${stored.componentId}": the publishable key cannot change it to "${sent.componentId}".`,
    });
  }
  const sentByKey = new Map(sent.fields.map((f) => [f.key, f]));
  for (const field of stored.fields) {
    const next = sentByKey.get(field.key);
    if (!next) {
      rejected.push({
        instanceKey,
        reason: `field "${field.key}" is kept: the publishable key cannot remove fields.`,
      });
    } else if (next.type !== field.type) {
      rejected.push({
        instanceKey,
        reason: `field "${field.key}" keeps type "${field.type}": the publishable key cannot change it to "${next.type}".`,
      });
    } else if (declarationJson(next) !== declarationJson(field)) {
      rejected.push({
        instanceKey,
        reason: `field "${field.key}" keeps its declaration: the publishable key cannot change its options, rules or nested fields.`,
      });
    }
  }
  const storedKeys = new Set(stored.fields.map((f) => f.key));
  const added = sent.fields
    .filter((f) => !storedKeys.has(f.key))
    .map((f) => heldBack(f, RULES_AND_DEFAULT, instanceKey, rejected));
  return {
    componentId: stored.componentId,
    // Stored fields keep their place; new ones follow in the order sent.
    fields: [...stored.fields, ...added],
  };
}

export function planSync(stored: StoredDefinition[], sent: ComponentInput[], scope: SyncScope): SyncPlan {
  const byKey = new Map(stored.map((d) => [d.instanceKey, d]));
  const plan: SyncPlan = { writes: [], created: [], changed: [], rejected: [] };
  for (const component of sent) {
    const before = byKey.get(component.instanceKey);
    let sentShape = { componentId: component.componentId, fields: component.fields };
    if (!before) {
      if (scope === 'additive') {
        // A new definition keeps its rules; its defaults are the publishable key's to ignore (§17).
        const fields = component.fields.map((f) =>
          heldBack(f, DEFAULT, component.instanceKey, plan.rejected),
        );
        sentShape = { ...sentShape, fields };
      }
      plan.writes.push({ instanceKey: component.instanceKey, ...sentShape, isNew: true });
      plan.created.push(component.instanceKey);
      continue;
    }
    const after = scope === 'full' ? sentShape : mergeAdditive(before, component, plan.rejected);
    const from = { componentId: before.componentId, fields: before.fields };
    if (sameShape(from, after)) continue;
    plan.writes.push({ instanceKey: component.instanceKey, ...after, isNew: false });
    plan.changed.push({ instanceKey: component.instanceKey, from, to: after });
  }
  return plan;
}
