/** How many characters of an entry's stored fields its title is looked for in (entry-search.repository.ts). */
export const TITLE_HEAD_LENGTH = 4096;
/** A title's length at most, in code points: a picker's line. */
const TITLE_LENGTH = 80;

/** The index of the quote that closes the JSON string opening at `start`; -1 when the text ends first. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}

/**
 * An entry's title as a picker names it: the first top-level string value that is not blank, in the
 * stored order of its fields (canonical JSON: keys by code units), cut to 80 characters; null when
 * there is none in `head`. `head` is the first TITLE_HEAD_LENGTH characters of the stored JSON, so the
 * search reads a few kilobytes of each entry it lists, never a whole map of up to 1 MB; text cut off
 * mid-string is no title. Rejected: parsing the whole map (a picker of 100 rows could parse 100 MB),
 * and a title declared per component (no such option in the contract).
 */
export function titleOfFields(head: string): string | null {
  let depth = 0;
  let valueNext = false;
  for (let i = 0; i < head.length; i++) {
    const c = head[i] as string;
    if (c === '"') {
      const end = stringEnd(head, i);
      if (end < 0) return null;
      if (depth === 1 && valueNext) {
        const text = JSON.parse(head.slice(i, end + 1)) as string;
        if (text.trim() !== '') return [...text].slice(0, TITLE_LENGTH).join('');
      }
      valueNext = false;
      i = end;
    } else if (c === ':') valueNext = true;
    else if (c === '{' || c === '[') {
      depth++;
      valueNext = false;
    } else if (c === '}' || c === ']') depth--;
    else if (c !== ' ' && c !== '\n' && c !== '\t' && c !== '\r') valueNext = false;
  }
  return null;
}
