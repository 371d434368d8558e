'use client';

import { useFolio } from '@folio/react';
import { FeatureList as FeatureListComponent } from '../lib/components';
import { items } from './values';

/**
 * A heading and the features: a `list` field (contract §13), one list per language. Each item keeps its
 * `_key` across reorders, so React keeps each item's element when the editor moves it.
 */
export function FeatureList() {
  const { heading, items: value } = useFolio('features', FeatureListComponent);
  const features = items(value).filter((item) => typeof item.title === 'string' && item.title !== '');
  return (
    <section className="features" id="features" aria-labelledby="features-heading">
      <h2 id="features-heading">{heading ?? 'Features'}</h2>
      {features.length === 0 ? (
        <p className="empty">No features yet.</p>
      ) : (
        <ul>
          {features.map((feature) => (
            <li key={feature._key}>
              <h3>{feature.title}</h3>
              {typeof feature.text === 'string' && feature.text !== '' && <p>{feature.text}</p>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
