import { component, image, link, list, reference, text, url } from '@folio/sdk';

/**
 * Every component of the site, declared once (contract §13): the React components read their values
 * with these declarations (`useFolio`), the site registers them in development, the baked build
 * resolves references with them, and `npm run seed` syncs them. `localized: true` marks the texts a
 * translator writes per language; the rest (an image, a link, who said a quote, which testimonials a
 * page shows) is shared by every language.
 */

/** The page's opening. */
export const Hero = component('Hero', {
  title: text({ localized: true, label: 'Title' }),
  subtitle: text({ localized: true, multiline: true, label: 'Subtitle' }),
  image: image({ label: 'Image' }),
  ctaLabel: text({ localized: true, label: 'Button label' }),
  ctaUrl: url({ label: 'Button link' }),
});

/** A heading and a list of features: one `list` field, its items reordered by the editor. */
export const FeatureList = component('FeatureList', {
  heading: text({ localized: true, label: 'Heading' }),
  items: list(
    { title: text({ label: 'Title' }), text: text({ multiline: true, label: 'Text' }) },
    { localized: true, max: 12, label: 'Features' },
  ),
});

/** One customer's words: an entry of the shared page `@site`, referenced by the pages that show it. */
export const Testimonial = component('Testimonial', {
  quote: text({ localized: true, multiline: true, label: 'Quote' }),
  author: text({ label: 'Author' }),
  role: text({ localized: true, label: 'Role' }),
});

/** The testimonials a page shows, by reference: the same quotes everywhere, each translated once. */
export const Testimonials = component('Testimonials', {
  heading: text({ localized: true, label: 'Heading' }),
  items: reference(Testimonial, { multiple: true, max: 6, label: 'Testimonials' }),
});

/** The heading of the products (Folio objects of type `product`, not localized). */
export const ProductGrid = component('ProductGrid', {
  heading: text({ localized: true, label: 'Heading' }),
});

/** A menu item or a footer link: a label and where it goes (a page of the site, an anchor, a URL). */
const linkItem = { label: text({ label: 'Label' }), link: link({ label: 'Link' }) };

/** The navigation, on `@site`: one list per language (labels differ, and so may the order). */
export const Menu = component('Menu', {
  items: list(linkItem, { localized: true, max: 8, label: 'Menu items' }),
});

/** The footer, on `@site`. */
export const Footer = component('Footer', {
  text: text({ localized: true, multiline: true, label: 'Text' }),
  links: list(linkItem, { localized: true, max: 8, label: 'Links' }),
});

/** The shared page of the menu, the footer and the testimonials (contract §13, "Shared content"). */
export const SITE_PAGE = '@site';

/** The components of each page, in page order, with their instance keys. */
export const HOME_COMPONENTS = [
  { instanceKey: 'hero', ...Hero },
  { instanceKey: 'features', ...FeatureList },
  { instanceKey: 'testimonials', ...Testimonials },
  { instanceKey: 'products', ...ProductGrid },
] as const;
export const SITE_COMPONENTS = [
  { instanceKey: 'menu', ...Menu },
  { instanceKey: 'footer', ...Footer },
] as const;

/** Every kind of component (baked mode resolves references by these declarations). */
export const ALL_COMPONENTS = [Hero, FeatureList, Testimonial, Testimonials, ProductGrid, Menu, Footer];
