/**
 * What a definitions sync would do to a page, computed without touching the database (contract §11).
 * Pure, so the real sync and `?dryRun=true` share one rule and the rule has unit tests beside it.
 *
 * `full` (a member's session, a write secret key, or the publishable key in `open` mode): each sent
 * definition replaces the stored one. `additive` (the publishable key, the default mode): new
 * definitions and new fields are taken; a changed componentId, a changed field type and a field left
 * out are kept as stored and reported in `rejected`, so a public key cannot restructure live content.
 */

export interface FieldDeclaration {
  key: string;
  type: string;
}

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

/** Stored form of fields: key order fixed, so an identical resend compares equal. */
export const fieldsJson = (fields: FieldDeclaration[]): string =>
  JSON.stringify(fields.map((f) => ({ key: f.key, type: f.type })));

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
    }
  }
  const storedKeys = new Set(stored.fields.map((f) => f.key));
  return {
    componentId: stored.componentId,
    // Stored fields keep their place; new ones follow in the order sent.
    fields: [...stored.fields, ...sent.fields.filter((f) => !storedKeys.has(f.key))],
  };
}

export function planSync(stored: StoredDefinition[], sent: ComponentInput[], scope: SyncScope): SyncPlan {
  const byKey = new Map(stored.map((d) => [d.instanceKey, d]));
  const plan: SyncPlan = { writes: [], created: [], changed: [], rejected: [] };
  for (const component of sent) {
    const before = byKey.get(component.instanceKey);
    const sentShape = { componentId: component.componentId, fields: component.fields };
    if (!before) {
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
