import { Button, Group, Text, TextInput } from '@mantine/core';
import { type ChainedCommands, EditorContent, useEditor, useEditorState } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useId, useState } from 'react';
import { isLinkable } from '../lib/fields';

/**
 * The rich text editor (Tiptap), loaded only when a page has a richtext field (React.lazy in
 * FieldControl), so its ~100 KB stay out of the first load.
 *
 * What is stored is either HTML or Tiptap's JSON document; the editor answers in the same form it was
 * given (a new field is HTML). Content passes through the editor's schema on the way in: elements it
 * does not know (script, iframe, event handler attributes, style) are dropped, so a stored value can
 * never run code here, and neither can what it saves. Links are checked as `url` values are
 * (http(s), mailto:, tel: or a relative address; never javascript:), both in the toolbar's form and in
 * the Link extension's own `isAllowedUri`, which also judges pasted and stored links.
 * `injectCSS: false`: the CSP refuses inline styles; app.css styles the editor.
 */
const LINK_HELP = 'Use an http(s), mailto: or tel: address, or a path on the site such as /about.';

export default function RichTextEditor({
  value,
  labelId,
  onChange,
}: {
  value: unknown;
  labelId: string;
  onChange(value: unknown): void;
}) {
  const asJson = typeof value === 'object' && value !== null;
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [2, 3] },
        link: {
          openOnClick: false,
          autolink: false,
          isAllowedUri: (url) => isLinkable(url),
          HTMLAttributes: { rel: 'noopener noreferrer', target: null },
        },
      }),
    ],
    content: asJson ? (value as object) : typeof value === 'string' ? value : '',
    injectCSS: false,
    shouldRerenderOnTransaction: false,
    editorProps: {
      attributes: {
        'aria-labelledby': labelId,
        role: 'textbox',
        'aria-multiline': 'true',
      },
    },
    onUpdate: ({ editor: e }) => onChange(asJson ? e.getJSON() : e.getHTML()),
  });
  const marks = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e?.isActive('bold') ?? false,
      italic: e?.isActive('italic') ?? false,
      heading: e?.isActive('heading', { level: 2 }) ?? false,
      subheading: e?.isActive('heading', { level: 3 }) ?? false,
      bullets: e?.isActive('bulletList') ?? false,
      numbers: e?.isActive('orderedList') ?? false,
      link: e?.isActive('link') ?? false,
      href: (e?.getAttributes('link').href as string | undefined) ?? '',
    }),
  });
  const [linking, setLinking] = useState(false);
  const [address, setAddress] = useState('');
  const [linkError, setLinkError] = useState<string | null>(null);
  const addressId = useId();

  const toggle = (label: string, pressed: boolean | undefined, run: (chain: ChainedCommands) => unknown) => (
    <Button
      size="compact-xs"
      variant={pressed ? 'filled' : 'default'}
      aria-pressed={pressed ?? false}
      onClick={() => editor && run(editor.chain().focus())}
    >
      {label}
    </Button>
  );

  const applyLink = () => {
    if (!editor) return;
    const href = address.trim();
    if (href === '') {
      editor.chain().focus().extendMarkRange('link').unsetLink().run();
    } else if (!isLinkable(href)) {
      setLinkError(`“${href}” cannot be a link. ${LINK_HELP}`);
      return;
    } else if (editor.state.selection.empty && !editor.isActive('link')) {
      // Nothing selected: the address becomes the link's text.
      editor
        .chain()
        .focus()
        .insertContent({ type: 'text', text: href, marks: [{ type: 'link', attrs: { href } }] })
        .run();
    } else {
      editor.chain().focus().extendMarkRange('link').setLink({ href }).run();
    }
    setLinking(false);
    setLinkError(null);
  };

  return (
    <div className="folio-richtext">
      <Group gap={4} p={4} role="toolbar" aria-label="Formatting">
        {toggle('Bold', marks?.bold, (c) => c.toggleBold().run())}
        {toggle('Italic', marks?.italic, (c) => c.toggleItalic().run())}
        {toggle('Heading', marks?.heading, (c) => c.toggleHeading({ level: 2 }).run())}
        {toggle('Subheading', marks?.subheading, (c) => c.toggleHeading({ level: 3 }).run())}
        {toggle('Bulleted list', marks?.bullets, (c) => c.toggleBulletList().run())}
        {toggle('Numbered list', marks?.numbers, (c) => c.toggleOrderedList().run())}
        <Button
          size="compact-xs"
          variant={marks?.link ? 'filled' : 'default'}
          aria-pressed={marks?.link ?? false}
          aria-expanded={linking}
          onClick={() => {
            setAddress(marks?.href ?? '');
            setLinkError(null);
            setLinking((open) => !open);
          }}
        >
          Link
        </Button>
      </Group>
      {linking && (
        <Group gap={4} p={4} align="flex-start" wrap="nowrap">
          <TextInput
            id={addressId}
            size="xs"
            label="Link address"
            description={LINK_HELP}
            value={address}
            error={linkError}
            autoFocus
            onChange={(event) => {
              setAddress(event.currentTarget.value);
              setLinkError(null);
            }}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                applyLink();
              } else if (event.key === 'Escape') {
                setLinking(false);
                editor?.commands.focus();
              }
            }}
            className="folio-grow"
          />
          <Button size="xs" mt={20} onClick={applyLink}>
            {address.trim() === '' ? 'Remove link' : 'Apply link'}
          </Button>
        </Group>
      )}
      {marks?.link && !linking && (
        <Text size="xs" c="dimmed" px={4}>
          Link to {marks.href}
        </Text>
      )}
      <EditorContent editor={editor} />
    </div>
  );
}
