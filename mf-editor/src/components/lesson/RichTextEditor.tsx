import { useEffect, useRef, useState, type ReactNode } from 'react';
import styled from 'styled-components';
import { z } from 'zod';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { Button, Field, Input, LinkIcon, Row, Stack, useZodForm } from '@portal/ui';
import { proseStyles, sanitizeRichHtml } from '@portal/ui/richText';

/** What a text block holds: the plain rendition (the spec's `text`) and the sanitised html. */
export type RichTextValue = { text: string; html?: string };

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A block written before rich text: one paragraph a line. */
const htmlOf = (value: RichTextValue) =>
  value.html ??
  value.text
    .split('\n')
    .map((line) => `<p>${escapeHtml(line)}</p>`)
    .join('');

const linkSchema = z.object({
  href: z
    .string()
    .trim()
    .regex(/^(https?:\/\/\S+|mailto:\S+@\S+)$/i, 'Адрес ссылки должен начинаться с http://, https:// или mailto:'),
});

/** Shown while the text is empty; never stored (a new text block's content is empty). */
export const TEXT_PLACEHOLDER = 'Введите текст...';

/** States of the text remembered as this editor's own (a save's answer is one of the last few). */
const MAX_ECHOES = 50;

/**
 * Rich text for a text block, TipTap on ProseMirror: bold, italic, headings, lists, links
 * and quotes. What is pasted from Word or Google Docs is read through the same schema, so its
 * structure stays and its styles, classes and fonts do not. Each change is sent sanitised, with its
 * plain rendition. Loaded lazily: only an author who opens a text block pays for the editor.
 */
export default function RichTextEditor({ value, onChange }: { value: RichTextValue; onChange: (next: RichTextValue) => void }) {
  const sent = useRef<string | undefined>(value.html);
  // The states this editor sent lately: a save answers one of them, often after newer ones were typed.
  const echoes = useRef<string[]>([]);
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [2, 3, 4] },
        code: false,
        codeBlock: false,
        horizontalRule: false,
        link: { openOnClick: false, autolink: true, protocols: ['mailto'], defaultProtocol: 'https' },
      }),
    ],
    content: htmlOf(value),
    editorProps: {
      attributes: {
        'aria-label': 'Текст',
        'aria-multiline': 'true',
        'aria-placeholder': TEXT_PLACEHOLDER,
        role: 'textbox',
        'data-testid': 'rich-text',
      },
    },
    immediatelyRender: true,
    onUpdate: ({ editor: e }) => {
      const html = e.isEmpty ? '' : sanitizeRichHtml(e.getHTML());
      sent.current = html;
      echoes.current = [...echoes.current.slice(-(MAX_ECHOES - 1)), html];
      onChange({ html, text: e.getText({ blockSeparator: '\n' }).trim() });
    },
  });

  // A change from elsewhere (a co-author's save, a conflict resolved) replaces what is shown; never
  // while the author types here, nor when it is a save's answer, an older state of this very text:
  // putting it back moved the caret and lost the letters typed since (also while the focus is in the
  // link's address, outside the text).
  useEffect(() => {
    if (
      !editor ||
      editor.isFocused ||
      value.html === sent.current ||
      (value.html !== undefined && echoes.current.includes(value.html))
    )
      return;
    sent.current = value.html;
    editor.commands.setContent(htmlOf(value), { emitUpdate: false });
  }, [editor, value]);

  return (
    <Stack $gap={6}>
      <Toolbar editor={editor} />
      <Writing>
        <Surface editor={editor} />
        <Placeholder editor={editor} />
      </Writing>
    </Stack>
  );
}

/** The placeholder over an empty text, as an input's: gone with the first letter, and not a letter of the text. */
function Placeholder({ editor }: { editor: Editor }) {
  const empty = useEditorState({ editor, selector: ({ editor: e }) => e.isEmpty });
  return empty ? <PlaceholderText aria-hidden="true">{TEXT_PLACEHOLDER}</PlaceholderText> : null;
}

function Toolbar({ editor }: { editor: Editor }) {
  const [linking, setLinking] = useState(false);
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      h2: e.isActive('heading', { level: 2 }),
      h3: e.isActive('heading', { level: 3 }),
      bullet: e.isActive('bulletList'),
      ordered: e.isActive('orderedList'),
      quote: e.isActive('blockquote'),
      link: e.isActive('link'),
    }),
  });
  const chain = () => editor.chain().focus();
  const tools: { label: string; text: ReactNode; active: boolean; run: () => void }[] = [
    { label: 'Жирный', text: 'Ж', active: state.bold, run: () => chain().toggleBold().run() },
    { label: 'Курсив', text: 'К', active: state.italic, run: () => chain().toggleItalic().run() },
    { label: 'Заголовок', text: 'H2', active: state.h2, run: () => chain().toggleHeading({ level: 2 }).run() },
    { label: 'Подзаголовок', text: 'H3', active: state.h3, run: () => chain().toggleHeading({ level: 3 }).run() },
    { label: 'Маркированный список', text: '•', active: state.bullet, run: () => chain().toggleBulletList().run() },
    { label: 'Нумерованный список', text: '1.', active: state.ordered, run: () => chain().toggleOrderedList().run() },
    { label: 'Цитата', text: '❝', active: state.quote, run: () => chain().toggleBlockquote().run() },
    { label: 'Ссылка', text: <LinkIcon />, active: state.link || linking, run: () => setLinking((v) => !v) },
  ];
  return (
    <>
      <Row role="toolbar" aria-label="Оформление текста" $gap={4}>
        {tools.map((t) => (
          <Button
            key={t.label}
            type="button"
            $variant={t.active ? 'secondary' : 'ghost'}
            $size="sm"
            aria-label={t.label}
            title={t.label}
            aria-pressed={t.active}
            // The caret stays in the text: a click does not take the focus, so the keys pressed right
            // after it reach the text (TipTap gives the focus back only on the next frame).
            onMouseDown={(e) => e.preventDefault()}
            onClick={t.run}
          >
            {t.text}
          </Button>
        ))}
      </Row>
      {linking && <LinkForm editor={editor} onDone={() => setLinking(false)} />}
    </>
  );
}

/** The address of a link over the selected words; an empty one is refused inline, «Убрать ссылку» unlinks. */
function LinkForm({ editor, onDone }: { editor: Editor; onDone: () => void }) {
  const current = (editor.getAttributes('link').href as string | undefined) ?? '';
  const form = useZodForm(linkSchema, { href: current });
  const submit = form.handleSubmit(({ href }) => {
    // The caret goes after the link, as it does in other editors: a key pressed next goes on writing
    // instead of replacing the linked words.
    editor
      .chain()
      .focus()
      .extendMarkRange('link')
      .setLink({ href })
      .command(({ tr, commands }) => commands.setTextSelection(tr.selection.to))
      .run();
    onDone();
  });
  return (
    <Stack
      as="form"
      $gap={6}
      onSubmit={(e) => {
        e.stopPropagation();
        void submit(e);
      }}
      noValidate
    >
      <Field label="Адрес ссылки" error={form.formState.errors.href?.message}>
        <Input {...form.register('href')} placeholder="https://" autoFocus />
      </Field>
      <Row $gap={6}>
        <Button type="submit" $size="sm">
          Применить
        </Button>
        {current && (
          <Button
            type="button"
            $variant="outline"
            $size="sm"
            onClick={() => {
              editor.chain().focus().extendMarkRange('link').unsetLink().run();
              onDone();
            }}
          >
            Убрать ссылку
          </Button>
        )}
      </Row>
    </Stack>
  );
}

const Writing = styled.div`
  position: relative;
`;

const PlaceholderText = styled.span`
  position: absolute;
  top: 9px;
  left: 11px;
  line-height: 1.55;
  color: ${({ theme }) => theme.colors.muted};
  pointer-events: none;
`;

const Surface = styled(EditorContent)`
  .ProseMirror {
    ${proseStyles}
    min-height: 180px;
    padding: 8px 10px;
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: ${({ theme }) => theme.radius};
    background: ${({ theme }) => theme.colors.surface};
    color: ${({ theme }) => theme.colors.text};
    outline: none;
  }
  .ProseMirror:focus-visible {
    box-shadow: 0 0 0 2px ${({ theme }) => theme.colors.focus};
  }
`;
