/**
 * Type tests of useFolio's values (no runtime: `npm run typecheck` compiles this file). `Expect<Equal<A,
 * B>>` fails to compile unless A and B are the same type; each `@ts-expect-error` fails to compile
 * unless its next line is an error.
 */
import { blocks, link, list, type ResolvedEntry, reference, select, text } from '@folio/sdk';
import { useFolio } from '../../src/index.js';
import { Landing, Menu, Testimonial } from '../marketing.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

export function Typed() {
  const landing = useFolio('landing', Landing);
  type Section = NonNullable<typeof landing.sections>[number];
  const _types: Expect<Equal<Section['_type'], 'Hero' | 'Features'>> = true;
  const _refs: Expect<
    Equal<
      typeof landing.testimonials,
      | (ResolvedEntry<'Testimonial', { readonly quote: string; readonly author: string }> | { id: string })[]
      | undefined
    >
  > = true;

  const menu = useFolio('menu', Menu);
  const _items: Expect<
    Equal<
      typeof menu.items,
      | {
          readonly _key: string;
          readonly label: string;
          readonly to: { pageId: string } | { href: string };
        }[]
      | undefined
    >
  > = true;

  // Declared inline, today's type names beside builders.
  const inline = useFolio('inline', {
    componentId: 'Inline',
    fields: {
      title: 'text',
      tone: select(['calm', 'loud'], { required: true }),
      links: list({ to: link() }),
      body: blocks([{ componentId: 'Para', fields: { text: 'text' } }]),
      quote: reference(Testimonial),
    },
  });
  const _inline: Expect<Equal<typeof inline.tone, 'calm' | 'loud'>> = true;
  const _title: Expect<Equal<typeof inline.title, string | undefined>> = true;

  // @ts-expect-error a select value outside its options
  const _tone: typeof inline.tone = 'quiet';
  // @ts-expect-error a block's fields are narrowed on _type: a Para has no heading
  const _para = inline.body?.[0]?._type === 'Para' && inline.body[0].heading;
  // @ts-expect-error a reference may be { id } alone: narrow it with isResolved first
  const _quote = inline.quote?.fields;
  // @ts-expect-error an undeclared field is not there
  void inline.subtitle;

  useFolio('bad', {
    componentId: 'Bad',
    // @ts-expect-error localized is for top-level fields only
    fields: { items: list({ title: text({ localized: true }) }) },
  });

  return <i>{[_types, _refs, _items, _inline, _title, _tone, _para, _quote].length}</i>;
}
