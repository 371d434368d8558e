'use client';

import { useFolio } from '@folio/react';
import { isResolved } from '@folio/sdk';
import { Testimonials as TestimonialsComponent } from '../lib/components';

/**
 * Testimonials by reference: the page's entry holds the ids of Testimonial entries of `@site` (shared by
 * every language: which quotes a page shows); a visitor's read gives each one resolved, in the reader's
 * language (its quote and role translated, its author shared). A testimonial not published (in this
 * language or one it falls back to) is left out by Folio.
 */
export function Testimonials() {
  const { heading, items } = useFolio('testimonials', TestimonialsComponent);
  const quotes = (Array.isArray(items) ? items : []).filter(isResolved);
  return (
    <section className="testimonials" id="testimonials" aria-labelledby="testimonials-heading">
      <h2 id="testimonials-heading">{heading ?? 'What our customers say'}</h2>
      {quotes.length === 0 ? (
        <p className="empty">No testimonials yet.</p>
      ) : (
        <ul>
          {quotes.map(({ id, fields }) => (
            <li key={id}>
              <figure>
                {typeof fields.quote === 'string' && (
                  <blockquote>
                    <p>{fields.quote}</p>
                  </blockquote>
                )}
                <figcaption>
                  {fields.author}
                  {fields.role && <span className="role">, {fields.role}</span>}
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
