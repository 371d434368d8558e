/**
 * `npm run seed`: fills a project with the example site in three languages, through Folio's API as an
 * editor would (the dashboard does the same requests). It
 *
 * 1. sets the project's languages (PATCH /v1/projects/:id `{ locales }`: English, French falling back
 *    to English, Canadian French falling back to French);
 * 2. registers the components of `/` and of the shared page `@site` (POST /v1/definitions/sync),
 *    among them two Testimonial entries on `@site` that the home page references;
 * 3. writes each entry's texts in English, then French (PATCH /v1/content/:id?locale=fr), and a few
 *    in Canadian French, leaving the rest to fall back to French;
 * 4. publishes both pages in every language (POST /v1/content/bulk-publish `{ locale: "*" }`), and
 *    saves two products (objects).
 *
 * Needs FOLIO_URL, FOLIO_PROJECT, FOLIO_KEY and FOLIO_TOKEN (an admin's session), as
 * `folio create-project` prints them into .env.local. Running it again writes the same values again.
 * The browser tests seed their projects with it too (test/languages.spec.ts).
 */
import { pathToFileURL } from 'node:url';
import { fieldsOf } from '@folio/sdk';
import { HOME_COMPONENTS, SITE_COMPONENTS, SITE_PAGE, Testimonial } from '../lib/components';
import { PROJECT_LOCALES } from '../lib/locales';

export interface Target {
  url: string;
  projectId: string;
  /** The project's publishable key (a session's content requests name the project with it). */
  key: string;
  /** An admin's session token (setting the languages needs an admin; the rest an editor). */
  token: string;
}

interface Entry {
  id: string;
  instanceKey: string;
  fields: Record<string, unknown>;
}

/** One request to Folio's API as that admin; throws with the answer on anything but 2xx. */
export async function call<T = unknown>(
  target: Target,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(target.url.replace(/\/+$/, '') + path, {
    method,
    headers: {
      authorization: `Bearer ${target.token}`,
      'x-cms-key': target.key,
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return (JSON.parse(text) as { data: T }).data;
}

/** The testimonials of `@site`, by instance key. */
export const TESTIMONIALS = ['testimonial-amelie', 'testimonial-jonas'] as const;

type Texts = Record<string, Record<string, unknown>>;

/** Values by instance key and locale; `shared` holds the values every language shares. */
const SITE_TEXTS: Record<
  string,
  { shared?: Record<string, unknown>; en: Texts[string]; fr?: Texts[string]; 'fr-CA'?: Texts[string] }
> = {
  menu: {
    en: {
      items: [
        { label: 'Why us', link: { href: '#features' } },
        { label: 'Testimonials', link: { href: '#testimonials' } },
        { label: 'Our loaves', link: { href: '#products' } },
      ],
    },
    fr: {
      items: [
        { label: 'Pourquoi nous', link: { href: '#features' } },
        { label: 'Témoignages', link: { href: '#testimonials' } },
        { label: 'Nos pains', link: { href: '#products' } },
      ],
    },
  },
  footer: {
    en: {
      text: 'Folio Bakery, 12 Flour Street. Open every day from 7 am.',
      links: [{ label: 'Write to us', link: { href: 'mailto:hello@example.com' } }],
    },
    fr: {
      text: 'Boulangerie Folio, 12 rue de la Farine. Ouvert tous les jours dès 7 h.',
      links: [{ label: 'Nous écrire', link: { href: 'mailto:hello@example.com' } }],
    },
  },
  'testimonial-amelie': {
    shared: { author: 'Amélie Laurent' },
    en: { quote: 'The best sourdough in town.', role: 'A regular since 2019' },
    fr: { quote: 'Le meilleur pain au levain de la ville.', role: 'Cliente depuis 2019' },
    'fr-CA': { quote: 'Le meilleur pain au levain en ville, pour vrai.' },
  },
  'testimonial-jonas': {
    shared: { author: 'Jonas Weber' },
    en: { quote: 'Their croissants make my mornings.', role: 'Neighbour' },
    fr: { quote: 'Leurs croissants illuminent mes matins.', role: 'Voisin' },
  },
};

const HOME_TEXTS: typeof SITE_TEXTS = {
  hero: {
    shared: { ctaUrl: '#products' },
    en: { title: 'Fresh bread daily', subtitle: 'Baked at dawn with local flour.', ctaLabel: 'Order' },
    fr: {
      title: 'Du pain frais chaque jour',
      subtitle: 'Cuit à l’aube avec de la farine locale.',
      ctaLabel: 'Commander',
    },
    'fr-CA': { title: 'Du pain frais tous les matins', ctaLabel: 'Commander en ligne' },
  },
  features: {
    en: {
      heading: 'Why us',
      items: [
        { title: 'Sourdough starter from 1987', text: 'Fed every day.' },
        { title: 'Local flour', text: 'Milled 20 km away.' },
      ],
    },
    fr: {
      heading: 'Pourquoi nous',
      items: [
        { title: 'Un levain de 1987', text: 'Nourri chaque jour.' },
        { title: 'De la farine locale', text: 'Moulue à 20 km.' },
      ],
    },
  },
  testimonials: {
    // Which testimonials the page shows is shared; each one's words are translated on @site.
    en: { heading: 'What our customers say' },
    fr: { heading: 'Ce que disent nos clients' },
  },
  products: { en: { heading: 'Our loaves' }, fr: { heading: 'Nos pains' } },
};

const enc = encodeURIComponent;

async function register(
  target: Target,
  pageId: string,
  components: readonly { instanceKey: string; componentId: string; fields: Parameters<typeof fieldsOf>[0] }[],
): Promise<Map<string, Entry>> {
  await call(target, 'POST', '/v1/definitions/sync', {
    pageId,
    components: components.map(({ instanceKey, componentId, fields }) => ({
      instanceKey,
      componentId,
      fields: fieldsOf(fields),
    })),
  });
  const entries = await call<Entry[]>(target, 'GET', `/v1/content/${enc(pageId)}`);
  return new Map(entries.map((entry) => [entry.instanceKey, entry]));
}

/** Writes each language's values: the default's with the shared ones, then each other's own. */
async function write(target: Target, entries: Map<string, Entry>, texts: typeof SITE_TEXTS): Promise<void> {
  for (const [instanceKey, values] of Object.entries(texts)) {
    const entry = entries.get(instanceKey);
    if (!entry) throw new Error(`no entry ${instanceKey}`);
    await call(target, 'PATCH', `/v1/content/${entry.id}?locale=en`, {
      fields: { ...values.shared, ...values.en },
    });
    for (const locale of ['fr', 'fr-CA'] as const) {
      const own = values[locale];
      if (own) await call(target, 'PATCH', `/v1/content/${entry.id}?locale=${enc(locale)}`, { fields: own });
    }
  }
}

/** Seeds the project (see the file's comment); returns the entries by page and instance key. */
export async function seedSite(
  target: Target,
): Promise<{ site: Map<string, Entry>; home: Map<string, Entry> }> {
  await call(target, 'PATCH', `/v1/projects/${target.projectId}`, { locales: PROJECT_LOCALES });

  const site = await register(target, SITE_PAGE, [
    ...SITE_COMPONENTS,
    ...TESTIMONIALS.map((instanceKey) => ({ instanceKey, ...Testimonial })),
  ]);
  await write(target, site, SITE_TEXTS);
  await call(target, 'POST', '/v1/content/bulk-publish', { pageId: SITE_PAGE, locale: '*' });

  const home = await register(target, '/', HOME_COMPONENTS);
  const testimonials = TESTIMONIALS.map((key) => site.get(key)?.id);
  await write(target, home, {
    ...HOME_TEXTS,
    testimonials: { ...HOME_TEXTS.testimonials!, shared: { items: testimonials } },
  });
  await call(target, 'POST', '/v1/content/bulk-publish', { pageId: '/', locale: '*' });

  await call(target, 'POST', '/v1/objects/save', {
    status: 'published',
    objects: [
      {
        type: 'product',
        id: 'sourdough',
        fields: { name: 'Sourdough', price: 6.5, summary: 'Three-day ferment' },
      },
      { type: 'product', id: 'baguette', fields: { name: 'Baguette', price: 2.2 } },
    ],
  });
  return { site, home };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const missing = ['FOLIO_URL', 'FOLIO_PROJECT', 'FOLIO_KEY', 'FOLIO_TOKEN'].filter(
    (name) => !process.env[name],
  );
  if (missing.length > 0) {
    console.error(
      `npm run seed needs ${missing.join(', ')} (see the README: .env.local from folio create-project, loaded into the shell).`,
    );
    process.exit(1);
  }
  const env = process.env as Record<string, string>;
  seedSite({
    url: env.FOLIO_URL!,
    projectId: env.FOLIO_PROJECT!,
    key: env.FOLIO_KEY!,
    token: env.FOLIO_TOKEN!,
  }).then(
    () =>
      console.log(
        'Seeded: English, French and Canadian French, published. npm run dev, then open http://localhost:3001/fr',
      ),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
