import { useFolio } from '../src/index.js';

/** A component of a site, as a site developer writes it. */
export function Hero() {
  const { title, price, onSale } = useFolio('hero', {
    componentId: 'Hero',
    fields: { title: 'text', price: 'number', onSale: 'boolean' },
  });
  return (
    <section>
      <h1>{title ?? 'Untitled'}</h1>
      {price !== undefined && <p>{`${price.toFixed(2)} EUR`}</p>}
      {onSale && <strong>On sale</strong>}
    </section>
  );
}

export function Footer() {
  const { note } = useFolio('footer', { componentId: 'Footer', fields: { note: 'richtext' } });
  return <footer>{note ?? '…'}</footer>;
}
