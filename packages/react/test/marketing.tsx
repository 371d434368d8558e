import { blocks, component, isResolved, link, list, reference, select, text } from '@folio/sdk';
import { useFolio } from '../src/index.js';

/** The README's marketing page, as a site developer writes it with @folio/react. */
export const Testimonial = component('Testimonial', {
  quote: text({ required: true, maxLength: 280 }),
  author: text({ required: true }),
});

export const Hero = component('Hero', {
  headline: text({ required: true, maxLength: 60 }),
  variant: select(['light', 'dark', 'brand'], { required: true, default: 'light' }),
  cta: link(),
});

export const Features = component('Features', {
  items: list({ title: text({ required: true }), icon: select(['bolt', 'star']) }, { max: 12 }),
});

export const Landing = component('Landing', {
  sections: blocks([Hero, Features]),
  testimonials: reference(Testimonial, { multiple: true, max: 6 }),
});

export const Menu = component('Menu', {
  items: list({ label: text({ required: true }), to: link({ required: true }) }),
});

const hrefOf = (to: { pageId: string } | { href: string }) => ('pageId' in to ? to.pageId : to.href);

export function HeroView({ instanceKey }: { instanceKey: string }) {
  const { headline, variant, cta } = useFolio(instanceKey, Hero);
  return (
    <header className={`hero hero-${variant}`}>
      <h1>{headline}</h1>
      {cta && <a href={hrefOf(cta)}>Start</a>}
    </header>
  );
}

export function LandingView() {
  const { sections = [], testimonials = [] } = useFolio('landing', Landing);
  return (
    <main>
      {sections.map((section) =>
        section._type === 'Hero' ? (
          <h2 key={section._key}>{section.headline}</h2>
        ) : (
          <ul key={section._key}>
            {section.items?.map((item) => (
              <li key={item._key} data-icon={item.icon ?? 'none'}>
                {item.title}
              </li>
            ))}
          </ul>
        ),
      )}
      {testimonials.filter(isResolved).map((t) => (
        <blockquote key={t.id}>
          {t.fields.quote} ({t.fields.author})
        </blockquote>
      ))}
    </main>
  );
}

export function MenuView() {
  const { items = [] } = useFolio('menu', Menu);
  return (
    <nav>
      {items.map((item) => (
        <a key={item._key} href={hrefOf(item.to)}>
          {item.label}
        </a>
      ))}
    </nav>
  );
}
