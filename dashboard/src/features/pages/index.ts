/** Pages: their query keys and paths, which editing and history refresh and link to. */
export { pageKeys, pagePath } from './api/pages.api';
