import { Button, Group } from '@mantine/core';
import { EditorContent, useEditor, useEditorState } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';

/**
 * The rich text editor (Tiptap), loaded only when a page has a richtext field (React.lazy in
 * FieldControl), so its ~100 KB stay out of the first load.
 *
 * What is stored is either HTML or Tiptap's JSON document; the editor answers in the same form it was
 * given (a new field is HTML). Content passes through the editor's schema on the way in: elements it
 * does not know (script, iframe, event handler attributes, style) are dropped, so a stored value can
 * never run code here, and neither can what it saves. `injectCSS: false`: the CSP refuses inline
 * styles; app.css styles the editor.
 */
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
    extensions: [StarterKit.configure({ link: { openOnClick: false } })],
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
      bullets: e?.isActive('bulletList') ?? false,
    }),
  });

  return (
    <div className="folio-richtext">
      <Group gap={4} p={4} role="toolbar" aria-label="Formatting">
        <Button
          size="compact-xs"
          variant={marks?.bold ? 'filled' : 'default'}
          aria-pressed={marks?.bold ?? false}
          onClick={() => editor?.chain().focus().toggleBold().run()}
        >
          Bold
        </Button>
        <Button
          size="compact-xs"
          variant={marks?.italic ? 'filled' : 'default'}
          aria-pressed={marks?.italic ?? false}
          onClick={() => editor?.chain().focus().toggleItalic().run()}
        >
          Italic
        </Button>
        <Button
          size="compact-xs"
          variant={marks?.bullets ? 'filled' : 'default'}
          aria-pressed={marks?.bullets ?? false}
          onClick={() => editor?.chain().focus().toggleBulletList().run()}
        >
          Bulleted list
        </Button>
      </Group>
      <EditorContent editor={editor} />
    </div>
  );
}
