/**
 * A value without the stega marks a visual-editing session adds to text (visual/stega.ts): for a site
 * that compares a text value, or uses it as a key or in a URL, while framed by the editor. Values
 * outside a session carry none, and come back unchanged. (The pattern is visual/stega.ts's `unmark`,
 * written twice so that the main bundle and the lazy chunks share no module, hence no extra request.)
 */
export function stegaClean<T>(value: T): T {
  return (typeof value === 'string' ? value.replace(/\u2063[\u200b-\u200d\u2060]*/g, '') : value) as T;
}
