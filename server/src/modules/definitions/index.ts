/**
 * Component definitions: owns `component_definitions`. Lends the declarations and their checks
 * (shape on every write, rules at publish) content applies, the limits, the page id schema, and the declared-fields subquery of a content write.
 */
export { byPosition, declaredFieldsOf, positionOfEntry } from './definitions.repository.js';
export { definitionsRoutes } from './definitions.routes.js';
export { PageId } from './definitions.schemas.js';
export {
  createDefinitionsService,
  type DefinitionsService,
  declarationsOf,
  type EntryStubs,
  pageDefinitions,
} from './definitions.service.js';
export { FieldValuesDoc } from './field-declaration.schemas.js';
export { declaresReferences, mapReferences, OMIT, referencesIn } from './field-references.js';
export type { FieldDeclaration } from './field-types.js';
export {
  checkPublish,
  checkWrite,
  type Declarations,
  holdsItems,
  type ReferenceWritten,
} from './field-values.js';
export { LIMITS } from './limits.js';
export { publishReport } from './publish-memo.js';
export { DEFAULT_RULES_BUDGET_MS, RuleBudget } from './rule-budget.js';
