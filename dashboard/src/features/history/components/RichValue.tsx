import { createElement, type ReactNode } from 'react';
import { isLinkable } from '../../editor';

/**
 * Rich text shown as an editor wrote it, safely: stored HTML is parsed by the browser's DOMParser (an
 * inert document: no script runs, no image loads) and rebuilt as React elements from a short list of
 * tags, with links kept only when their address passes the same check as `url` values. Everything
 * else (scripts, styles, event handlers, unknown tags) becomes its text or nothing. Never
 * dangerouslySetInnerHTML: a sanitiser's miss would then be a script in the dashboard's origin.
 */

const BLOCKS = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'blockquote', 'pre']);
const INLINE = new Set(['strong', 'b', 'em', 'i', 'u', 's', 'code', 'br', 'sub', 'sup']);
const DROPPED = new Set(['script', 'style', 'template', 'iframe', 'object', 'embed', 'noscript']);

function fromDom(node: Node, key: number): ReactNode {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent;
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const element = node as Element;
  const tag = element.tagName.toLowerCase();
  if (DROPPED.has(tag)) return null;
  const children = [...element.childNodes].map(fromDom);
  if (tag === 'a') {
    const href = element.getAttribute('href') ?? '';
    return isLinkable(href)
      ? createElement('a', { key, href, target: '_blank', rel: 'noopener noreferrer' }, ...children)
      : createElement('span', { key }, ...children);
  }
  if (tag === 'br') return createElement('br', { key });
  if (BLOCKS.has(tag) || INLINE.has(tag)) return createElement(tag, { key }, ...children);
  return createElement('span', { key }, ...children);
}

interface DocNode {
  type?: string;
  text?: string;
  attrs?: Record<string, unknown>;
  marks?: { type?: string; attrs?: Record<string, unknown> }[];
  content?: DocNode[];
}

const MARKS: Record<string, string> = {
  bold: 'strong',
  italic: 'em',
  underline: 'u',
  strike: 's',
  code: 'code',
};
const NODES: Record<string, string> = {
  paragraph: 'p',
  bulletList: 'ul',
  orderedList: 'ol',
  listItem: 'li',
  blockquote: 'blockquote',
  codeBlock: 'pre',
  hardBreak: 'br',
};

const listOf = <T,>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);

/**
 * A structured document (ProseMirror JSON, as Tiptap stores it) rebuilt the same way. The server
 * checks only that richtext is a string, an object or an array, so any JSON may be here: what is not
 * a node is left out, and text is shown only when it is text (an object as a child blanked the
 * screen, as it did for a reference holding one: issue 42 item 8).
 */
function fromDoc(node: DocNode, key: number): ReactNode {
  if (typeof node !== 'object' || node === null) return null;
  if (node.type === 'text') {
    let out: ReactNode = typeof node.text === 'string' ? node.text : '';
    for (const mark of listOf<{ type?: string; attrs?: Record<string, unknown> } | null>(node.marks)) {
      if (typeof mark !== 'object' || mark === null) continue;
      const href = mark.type === 'link' ? String(mark.attrs?.href ?? '') : '';
      if (mark.type === 'link' && isLinkable(href)) {
        out = createElement('a', { href, target: '_blank', rel: 'noopener noreferrer' }, out);
      } else if (typeof mark.type === 'string' && Object.hasOwn(MARKS, mark.type))
        out = createElement(MARKS[mark.type]!, null, out);
    }
    return createElement('span', { key }, out);
  }
  const children = listOf<DocNode>(node.content).map(fromDoc);
  if (node.type === 'heading') {
    const level = Math.min(6, Math.max(1, Number(node.attrs?.level) || 2));
    return createElement(`h${level}`, { key }, ...children);
  }
  if (node.type === 'hardBreak') return createElement('br', { key });
  const tag = (typeof node.type === 'string' && Object.hasOwn(NODES, node.type) && NODES[node.type]) || 'div';
  return createElement(tag, { key }, ...children);
}

export function RichValue({ value }: { value: unknown }) {
  let content: ReactNode;
  if (typeof value === 'string') {
    const body = new DOMParser().parseFromString(value, 'text/html').body;
    content = [...body.childNodes].map(fromDom);
  } else if (value && typeof value === 'object') {
    const doc = value as DocNode;
    content = (Array.isArray(value) ? (value as DocNode[]) : listOf<DocNode>(doc.content)).map(fromDoc);
  }
  return <div className="folio-rich-value">{content}</div>;
}
