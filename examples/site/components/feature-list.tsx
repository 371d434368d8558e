'use client';

import { useFolio } from '@folio/react';
import { featureItems } from './values';

/**
 * A list of features: a heading and `items`, a JSON field holding `[{ "title", "text" }]` (an editor
 * adds, removes and orders them in one field).
 */
export function FeatureList() {
  const { heading, items } = useFolio('features', {
    componentId: 'FeatureList',
    fields: { heading: 'text', items: 'json' },
  });
  const features = featureItems(items);
  return (
    <section className="features" aria-labelledby="features-heading">
      <h2 id="features-heading">{heading ?? 'Features'}</h2>
      {features.length === 0 ? (
        <p className="empty">No features yet.</p>
      ) : (
        <ul>
          {features.map((feature, index) => (
            // Items have no id of their own; their order is the editor's.
            // biome-ignore lint/suspicious/noArrayIndexKey: the list is replaced whole on every change
            <li key={index}>
              <h3>{feature.title}</h3>
              {feature.text && <p>{feature.text}</p>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
