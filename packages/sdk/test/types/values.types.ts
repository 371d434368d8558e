/**
 * Type tests of the value types inferred from declarations (no runtime: `npm run typecheck` compiles
 * this file, and `types.test.ts` runs that too). `Expect<Equal<A, B>>` fails to compile unless A and
 * B are the same type; each `@ts-expect-error` fails to compile unless its next line is an error.
 */
import {
  type Block,
  block,
  blocks,
  boolean,
  color,
  component,
  date,
  datetime,
  type EntryOf,
  findEntry,
  image,
  isResolved,
  json,
  type Link,
  link,
  list,
  number,
  object,
  type PageEntry,
  type ResolvedEntry,
  reference,
  richtext,
  select,
  text,
  url,
  type ValuesOf,
} from '../../src/index.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

// ---- Today's declarations: type names alone, every value optional ----
const Plain = component('Plain', {
  title: 'text',
  body: 'richtext',
  price: 'number',
  onSale: 'boolean',
  picture: 'image',
  site: 'url',
  data: 'json',
});
type PlainValues = ValuesOf<typeof Plain.fields>;
export type Plain1 = Expect<
  Equal<
    PlainValues,
    {
      readonly title: string | undefined;
      readonly body: string | undefined;
      readonly price: number | undefined;
      readonly onSale: boolean | undefined;
      readonly picture: string | undefined;
      readonly site: string | undefined;
      readonly data: unknown;
    }
  >
>;

// ---- Every builder, optional unless required ----
const Every = component('Every', {
  headline: text({ required: true, maxLength: 60, pattern: { source: '[^<>]*', message: 'no tags' } }),
  intro: richtext({ maxLength: 500 }),
  rating: number({ min: 1, max: 5, integer: true, required: true }),
  featured: boolean({ default: false }),
  launch: date({ min: '2026-01-01' }),
  startsAt: datetime(),
  accent: color({ default: '#ff0066' }),
  cover: image({ label: 'Cover image', help: 'At least 1200 pixels wide' }),
  website: url(),
  extra: json(),
  cta: link({ required: true }),
  variant: select(['light', 'dark', { value: 'brand', label: 'Brand colours' }], { required: true }),
  tags: select(['new', 'sale'], { multiple: true, max: 2 }),
  seo: object({ title: text({ required: true }), description: 'text' }),
  title: text({ localized: true }),
});
type EveryValues = ValuesOf<typeof Every.fields>;
export type Every1 = Expect<Equal<EveryValues['headline'], string>>;
export type Every2 = Expect<Equal<EveryValues['intro'], string | undefined>>;
export type Every3 = Expect<Equal<EveryValues['rating'], number>>;
export type Every4 = Expect<Equal<EveryValues['featured'], boolean | undefined>>;
export type Every5 = Expect<
  Equal<EveryValues['launch'] | EveryValues['startsAt'] | EveryValues['accent'], string | undefined>
>;
export type Every6 = Expect<Equal<EveryValues['cover'] | EveryValues['website'], string | undefined>>;
export type Every7 = Expect<Equal<EveryValues['extra'], unknown>>;
export type Every8 = Expect<Equal<EveryValues['cta'], Link>>;
export type Every9 = Expect<Equal<Link, { pageId: string } | { href: string }>>;
export type Every10 = Expect<Equal<EveryValues['variant'], 'light' | 'dark' | 'brand'>>;
export type Every11 = Expect<Equal<EveryValues['tags'], ('new' | 'sale')[] | undefined>>;
export type Every12 = Expect<
  Equal<EveryValues['seo'], { readonly title: string; readonly description: string | undefined } | undefined>
>;
export type Every13 = Expect<Equal<EveryValues['title'], string | undefined>>;

// ---- list: items carry a typed _key ----
const Features = component('Features', {
  items: list({ title: text({ required: true }), icon: select(['bolt', 'star']) }, { max: 12 }),
});
type FeatureItems = ValuesOf<typeof Features.fields>['items'];
export type List1 = Expect<
  Equal<
    FeatureItems,
    | { readonly _key: string; readonly title: string; readonly icon: 'bolt' | 'star' | undefined }[]
    | undefined
  >
>;

// ---- blocks: a union discriminated on _type ----
const Hero = component('Hero', { heading: text({ required: true }), image: 'image' });
const Page = component('Page', {
  sections: blocks(
    [Hero, block('Quote', { text: 'text', by: text({ required: true }) }, { label: 'Quotation' })],
    { required: true, max: 20 },
  ),
});
type Section = ValuesOf<typeof Page.fields>['sections'][number];
export type Blocks1 = Expect<Equal<Section['_type'], 'Hero' | 'Quote'>>;
export function renderSection(section: Section): string {
  switch (section._type) {
    case 'Hero':
      return section.heading + (section.image ?? '');
    case 'Quote':
      return `${section.text ?? ''} (${section.by})`;
  }
}
export type Blocks2 = Expect<
  Equal<
    Block<typeof Hero>,
    {
      readonly _key: string;
      readonly _type: 'Hero';
      readonly heading: string;
      readonly image: string | undefined;
    }
  >
>;

// ---- reference: typed by its target's declaration ----
const Testimonial = component('Testimonial', { quote: text({ required: true }), author: 'text' });
const Home = component('Home', {
  featured: reference(Testimonial),
  testimonials: reference(Testimonial, { multiple: true, max: 6 }),
  mixed: reference([Testimonial, Hero], { multiple: true, required: true }),
  byId: reference('Author'),
  anything: reference(),
  legacy: 'reference',
});
type HomeValues = ValuesOf<typeof Home.fields>;
type TestimonialEntry = ResolvedEntry<
  'Testimonial',
  { readonly quote: string; readonly author: string | undefined }
>;
export type Ref1 = Expect<
  Equal<HomeValues['featured'], TestimonialEntry | { id: string } | null | undefined>
>;
export type Ref2 = Expect<
  Equal<HomeValues['testimonials'], (TestimonialEntry | { id: string })[] | undefined>
>;
export type Ref3 = Expect<
  Equal<
    HomeValues['mixed'],
    (TestimonialEntry | ResolvedEntry<'Hero', ValuesOf<typeof Hero.fields>> | { id: string })[]
  >
>;
export type Ref4 = Expect<
  Equal<
    HomeValues['byId'],
    ResolvedEntry<'Author', Record<string, unknown>> | { id: string } | null | undefined
  >
>;
export type Ref5 = Expect<Equal<HomeValues['anything'], HomeValues['legacy']>>;
export type Ref6 = Expect<
  Equal<
    HomeValues['anything'],
    ResolvedEntry<string, Record<string, unknown>> | { id: string } | null | undefined
  >
>;

export function quoteOf(home: EntryOf<typeof Home>): string {
  const ref = home.fields.featured;
  if (!isResolved(ref)) return '';
  const _c: Expect<Equal<typeof ref.componentId, 'Testimonial'>> = true;
  return ref.fields.quote + _c;
}

// ---- What must not compile ----

// @ts-expect-error a select value outside its options
export const badSelect: EveryValues['variant'] = 'neon';
// @ts-expect-error a multiple select is an array
export const badTags: EveryValues['tags'] = 'new';
// @ts-expect-error a list item has a _key
export const badItem: NonNullable<FeatureItems>[number] = { title: 'x', icon: 'bolt' };
// @ts-expect-error a link is a pageId or an href, not a string
export const badLink: EveryValues['cta'] = '/about';
// @ts-expect-error a required value is never undefined
export const badRequired: EveryValues['headline'] = undefined;
// @ts-expect-error a number is not a string
export const badNumber: EveryValues['rating'] = '5';

export function badBlock(section: Section): string {
  if (section._type === 'Quote') {
    // @ts-expect-error a Quote block has no heading
    return section.heading;
  }
  // @ts-expect-error only a Quote has `by`: the union is narrowed on _type
  return section.by;
}

// @ts-expect-error a block's _type is one of its declared componentIds
export const badType: Section = { _key: 'k', _type: 'Banner', heading: 'x', image: undefined };

export function badReference(home: HomeValues): string {
  const ref = home.featured;
  // @ts-expect-error a reference may be { id } alone or null: narrow it first
  return ref.fields.quote;
}

export function badResolved(home: HomeValues): string {
  const ref = home.featured;
  if (!isResolved(ref)) return '';
  // @ts-expect-error a Testimonial has no heading
  return ref.fields.heading;
}

// @ts-expect-error a select default must be one of its values
select(['a', 'b'], { default: 'c' });
// @ts-expect-error a text default is a string
text({ default: 3 });
// @ts-expect-error a reference takes no default (contract §17)
reference(Testimonial, { default: 'ent_x' });
// @ts-expect-error a link takes no default (contract §17)
link({ default: { href: '/' } });
// @ts-expect-error localized is for top-level fields only: not inside a list
list({ title: text({ localized: true }) });
// @ts-expect-error localized is for top-level fields only: not inside an object
object({ title: text({ localized: true }) });
// @ts-expect-error blocks need at least one kind
blocks([]);
// @ts-expect-error select needs its options (no type name alone)
component('Bad', { variant: 'select' });
// @ts-expect-error a list needs its fields (no type name alone)
component('Bad', { items: 'list' });
// @ts-expect-error an option of another type (maxLength is not a number's)
number({ maxLength: 3 });
// @ts-expect-error an unknown type name
component('Bad', { when: 'time' });

// ---- findEntry: a page's entry typed by its component ----
export async function heroHeadline(entries: PageEntry[]): Promise<string> {
  const hero = findEntry(entries, 'hero', Hero);
  const _t: Expect<Equal<NonNullable<typeof hero>['fields']['heading'], string>> = true;
  // @ts-expect-error the Hero declares no subtitle
  void hero?.fields.subtitle;
  return hero?.fields.heading ?? String(_t);
}

// ---- Keys and defaults of containers ----

// @ts-expect-error no key inside a list starts with _ (_key and _type are the server's)
list({ _key: 'text' });
// @ts-expect-error nor inside an object
object({ _type: 'text' });
// A list's default is written without _key (the server gives each item one); a block's names its _type.
list({ title: 'text' }, { default: [{ title: 'First' }, { _key: 'b', title: 'Second' }] });
blocks([block('Quote', { text: 'text' })], { default: [{ _type: 'Quote', text: 'Hi' }] });
// @ts-expect-error a block default's _type is one of its kinds
blocks([block('Quote', { text: 'text' })], { default: [{ _type: 'Hero', text: 'Hi' }] });
