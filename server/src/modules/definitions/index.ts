/**
 * Component definitions: owns `component_definitions`. Lends the field types and limits content
 * checks values against, the page id schema, and the declared-fields subquery of a content write.
 */
export { byPosition, declaredFieldsOf, positionOfEntry } from './definitions.repository.js';
export { definitionsRoutes } from './definitions.routes.js';
export { PageId } from './definitions.schemas.js';
export {
  createDefinitionsService,
  type DefinitionsService,
  type EntryStubs,
  fieldTypesOf,
  pageDefinitions,
} from './definitions.service.js';
export { checkFieldValue } from './field-types.js';
export { LIMITS } from './limits.js';
