/**
 * A marketing page's components (issue 36): a hero of choices, dates, a colour, a link, a reference and
 * an object; a feature list; sections as blocks, one with a nested list; a testimonial; a `@site` menu.
 */
export const HERO = {
  componentId: 'Hero',
  instanceKey: 'hero',
  fields: [
    {
      key: 'headline',
      type: 'text',
      label: 'Headline',
      help: 'Up to 60 characters',
      required: true,
      maxLength: 60,
    },
    {
      key: 'variant',
      type: 'select',
      label: 'Variant',
      options: [{ value: 'wide', label: 'Wide' }, { value: 'narrow', label: 'Narrow' }, { value: 'split' }],
    },
    {
      key: 'theme',
      type: 'select',
      label: 'Theme',
      options: ['sand', 'sea', 'forest', 'night', 'rose', 'slate'].map((value) => ({ value })),
    },
    {
      key: 'tags',
      type: 'select',
      label: 'Tags',
      multiple: true,
      options: [{ value: 'new' }, { value: 'sale' }, { value: 'eco' }],
    },
    { key: 'launch', type: 'date', label: 'Launch day' },
    { key: 'startsAt', type: 'datetime', label: 'Starts at' },
    { key: 'accent', type: 'color', label: 'Accent' },
    { key: 'cta', type: 'link', label: 'Call to action' },
    { key: 'quote', type: 'reference', label: 'Testimonial', componentIds: ['Testimonial'] },
    {
      key: 'seo',
      type: 'object',
      label: 'SEO',
      fields: [
        { key: 'title', type: 'text', label: 'SEO title' },
        { key: 'noindex', type: 'boolean', label: 'Hide from search engines' },
      ],
    },
  ],
};
export const FEATURES = {
  componentId: 'Features',
  instanceKey: 'features',
  fields: [
    {
      key: 'items',
      type: 'list',
      label: 'Features',
      fields: [
        { key: 'title', type: 'text', label: 'Title', required: true },
        { key: 'body', type: 'text', label: 'Body' },
      ],
    },
  ],
};
export const SECTIONS = {
  componentId: 'Sections',
  instanceKey: 'sections',
  fields: [
    {
      key: 'sections',
      type: 'blocks',
      label: 'Sections',
      blocks: [
        {
          componentId: 'Quote',
          label: 'Quote',
          fields: [{ key: 'text', type: 'text', label: 'Quote text' }],
        },
        {
          componentId: 'Gallery',
          label: 'Gallery',
          fields: [
            { key: 'caption', type: 'text', label: 'Caption' },
            {
              key: 'slides',
              type: 'list',
              label: 'Slides',
              fields: [
                { key: 'alt', type: 'text', label: 'Slide text' },
                { key: 'tint', type: 'color', label: 'Tint' },
              ],
            },
          ],
        },
      ],
    },
  ],
};
export const TESTIMONIAL = {
  componentId: 'Testimonial',
  instanceKey: 'ada',
  fields: [{ key: 'said', type: 'text', label: 'Said' }],
};
export const MENU = {
  componentId: 'Menu',
  instanceKey: 'menu',
  fields: [
    {
      key: 'links',
      type: 'list',
      label: 'Links',
      fields: [
        { key: 'label', type: 'text', label: 'Label', required: true },
        { key: 'target', type: 'link', label: 'Target' },
      ],
    },
  ],
};
