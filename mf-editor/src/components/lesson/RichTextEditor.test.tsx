/** @jest-environment jsdom */
import { act, render } from '@testing-library/react';
import type { Editor } from '@tiptap/react';
import { ThemeProvider } from 'styled-components';
import { lightTheme } from '@portal/ui';
import RichTextEditor, { type RichTextValue } from './RichTextEditor';

function setup(initial: RichTextValue) {
  const sent: RichTextValue[] = [];
  const view = (value: RichTextValue) => (
    <ThemeProvider theme={lightTheme}>
      <RichTextEditor value={value} onChange={(next) => sent.push(next)} />
    </ThemeProvider>
  );
  const { container, rerender } = render(view(initial));
  // TipTap keeps its editor on the editable element.
  const editor = (container.querySelector('.ProseMirror') as HTMLElement & { editor: Editor }).editor;
  return { editor, sent, show: (value: RichTextValue) => rerender(view(value)) };
}

describe('RichTextEditor', () => {
  it('keeps what was typed since when a save answers an older state of the text, even with the focus outside it', () => {
    const { editor, sent, show } = setup({ text: 'Старый текст', html: '<p>Старый текст</p>' });
    act(() => {
      editor.commands.setContent('<p>Правила</p>', { emitUpdate: true });
    });
    act(() => {
      editor.commands.insertContentAt(editor.state.doc.content.size - 1, ' отпуска', { updateSelection: true });
    });
    expect(sent.map((v) => v.html)).toEqual(['<p>Правила</p>', '<p>Правила отпуска</p>']);
    expect(editor.isFocused).toBe(false); // as while the link's address is typed

    // The answer of the first save arrives: the text stays as typed.
    show({ text: 'Правила', html: '<p>Правила</p>' });
    expect(editor.getHTML()).toBe('<p>Правила отпуска</p>');
  });

  it('shows a change made elsewhere (a co-author’s save)', () => {
    const { editor, show } = setup({ text: 'Старый текст', html: '<p>Старый текст</p>' });
    show({ text: 'Текст соавтора', html: '<p>Текст <strong>соавтора</strong></p>' });
    expect(editor.getHTML()).toBe('<p>Текст <strong>соавтора</strong></p>');
  });
});
