import type { ContentBlock } from '@portal/contracts';
import { addBlock, blockPreview, copyBlock, createBlock, moveBlockTo, removeBlock, shiftBlock } from './blocks';
import {
  countBlocks,
  findLesson,
  updateLesson,
  withLoadedLesson,
  lessonReorder,
  moduleReorder,
  moveLesson,
  moveModule,
  newLessonPosition,
  newModulePosition,
  nextLessonTitle,
  nextModuleTitle,
  type EditorCourse,
  type EditorLesson,
} from './structure';

const lesson = (id: string, moduleId: string, title = id, blocks: ContentBlock[] = []): EditorLesson => ({
  id,
  moduleId,
  title,
  description: '',
  status: 'draft',
  blocks,
  loaded: true,
  blocksCount: blocks.length,
});
const course = (modules: Array<[string, string, string[]]>): EditorCourse => ({
  id: 'c',
  title: 'Курс',
  description: '',
  price: 0,
  duration: 0,
  level: 'Начальный',
  status: 'draft',
  modules: modules.map(([id, title, lessons]) => ({
    id,
    title,
    description: '',
    status: 'draft',
    lessons: lessons.map((t, i) => lesson(`${id}-${i}`, id, t)),
  })),
});
const titles = (c: EditorCourse) => c.modules.map((m) => [m.title, m.lessons.map((l) => l.title)]);

describe('auto-names and positions', () => {
  it('names new modules «Модуль N» and lessons «Урок N» after the highest number in use, from 1, counting the older «модуль_N» too', () => {
    const empty = course([]);
    expect(nextModuleTitle(empty)).toBe('Модуль 1');
    expect(nextLessonTitle(empty)).toBe('Урок 1');
    const used = course([
      ['a', 'модуль_2', ['Урок 1', 'Введение', 'урок_7']],
      ['b', 'Свой модуль', ['Урок 3', ' Урок 9 ', 'Урок x', 'Урок 10a']],
      ['c', 'Модуль 10', []],
    ]);
    expect(nextModuleTitle(used)).toBe('Модуль 11');
    expect(nextLessonTitle(used)).toBe('Урок 10');
    // A gap is not filled: the highest wins.
    expect(nextModuleTitle(course([['a', 'Модуль 5', []]]))).toBe('Модуль 6');
  });

  it('puts a module at the current count and a lesson after the highest position of its module', () => {
    const c = course([
      ['a', 'A', ['1', '2', '3']],
      ['b', 'B', []],
    ]);
    expect(newModulePosition(c)).toBe(2);
    expect(newLessonPosition(c.modules[0])).toBe(3);
    expect(newLessonPosition(c.modules[1])).toBe(0);
  });
});

describe('moving lessons and modules', () => {
  const start = () =>
    course([
      ['a', 'A', ['a1', 'a2', 'a3']],
      ['b', 'B', ['b1']],
    ]);

  it('moves a lesson within its module and into another, and names every lesson of both for the server', () => {
    const within = moveLesson(start(), 'a-2', 'a', 0);
    expect(titles(within)).toEqual([
      ['A', ['a3', 'a1', 'a2']],
      ['B', ['b1']],
    ]);
    const across = moveLesson(start(), 'a-0', 'b', 0);
    expect(titles(across)).toEqual([
      ['A', ['a2', 'a3']],
      ['B', ['a1', 'b1']],
    ]);
    expect(across.modules[1].lessons[0].moduleId).toBe('b');
    expect(lessonReorder(across, ['a', 'b'])).toEqual([
      { id: 'a-1', position: 0, moduleId: 'a' },
      { id: 'a-2', position: 1, moduleId: 'a' },
      { id: 'a-0', position: 0, moduleId: 'b' },
      { id: 'b-0', position: 1, moduleId: 'b' },
    ]);
    expect(titles(moveLesson(start(), 'a-0', 'b', 99))).toEqual([
      ['A', ['a2', 'a3']],
      ['B', ['b1', 'a1']],
    ]);
    expect(moveLesson(start(), 'nope', 'b', 0)).toEqual(start());
  });

  it('moves modules among themselves', () => {
    const moved = moveModule(start(), 'b', 0);
    expect(titles(moved)).toEqual([
      ['B', ['b1']],
      ['A', ['a1', 'a2', 'a3']],
    ]);
    expect(moduleReorder(moved)).toEqual([
      { id: 'b', position: 0 },
      { id: 'a', position: 1 },
    ]);
  });

  it('counts content blocks over every lesson', () => {
    const c = start();
    c.modules[0].lessons[0].blocks = [createBlock('text', 'a-0', 0), createBlock('heading', 'a-0', 1)];
    c.modules[1].lessons[0].blocks = [createBlock('quiz', 'b-0', 0)];
    expect(countBlocks(c)).toBe(3);
  });

  it('counts a lesson not opened yet by the outline’s figure, and takes its blocks once when it is read', () => {
    const c = start();
    c.modules[0].lessons[0] = { ...c.modules[0].lessons[0], loaded: false, blocks: [], blocksCount: 5 };
    expect(countBlocks(c)).toBe(5);

    const blocks = [createBlock('text', 'a-0', 0)];
    const record = {
      id: 'a-0',
      type: 'LESSON' as const,
      title: 'Прочитан',
      content: JSON.stringify(blocks),
      description: 'Описание',
      courseId: 'c',
      moduleId: 'a',
      position: 0,
      status: 'published' as const,
      version: 0,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-02T00:00:00.000Z',
    };
    const loaded = withLoadedLesson(c, record);
    expect(findLesson(loaded, 'a-0')).toMatchObject({ loaded: true, title: 'Прочитан', description: 'Описание', blocks });
    expect(countBlocks(loaded)).toBe(1);
    // Once loaded, the editor's copy is the truth: a later read does not replace edits.
    const edited = updateLesson(loaded, 'a-0', { title: 'Правка' });
    expect(findLesson(withLoadedLesson(edited, { ...record, title: 'Старое' }), 'a-0')?.title).toBe('Правка');
  });
});

describe('content blocks', () => {
  const three = () => {
    let blocks: ContentBlock[] = [];
    for (const type of ['heading', 'text', 'image'] as const) blocks = addBlock(blocks, type, 'l').blocks;
    return blocks;
  };

  it('adds blocks with the spec defaults, numbered count + 1', () => {
    const blocks = three();
    expect(blocks.map((b) => [b.type, b.order, b.lessonId])).toEqual([
      ['heading', 1, 'l'],
      ['text', 2, 'l'],
      ['image', 3, 'l'],
    ]);
    expect(blocks[0].content).toEqual({ text: 'Новый заголовок' });
    // «Введите текст...» is the editor's placeholder, not content: a new text block holds nothing.
    expect(blocks[1].content).toEqual({ text: '' });
    expect(new Set(blocks.map((b) => b.id)).size).toBe(3);
    // Defaults are copies: editing one block never edits the template.
    (blocks[2].content as { alt: string }).alt = 'изменено';
    expect((createBlock('image', 'l', 0).content as { alt: string }).alt).toBe('');
  });

  it('copies a block right after the original with a new id, and renumbers from 1', () => {
    const blocks = three();
    const { blocks: after, copy } = copyBlock(blocks, blocks[0].id);
    expect(after.map((b) => [b.type, b.order])).toEqual([
      ['heading', 1],
      ['heading', 2],
      ['text', 3],
      ['image', 4],
    ]);
    expect(copy?.id).not.toBe(blocks[0].id);
    expect(copy?.order).toBe(blocks[0].order + 1);
    expect(after[1].content).toEqual(after[0].content);
  });

  it('deletes, shifts and drags with orders renumbered from 1', () => {
    const blocks = three();
    expect(removeBlock(blocks, blocks[0].id).map((b) => [b.type, b.order])).toEqual([
      ['text', 1],
      ['image', 2],
    ]);
    expect(shiftBlock(blocks, blocks[2].id, -1).map((b) => [b.type, b.order])).toEqual([
      ['heading', 1],
      ['image', 2],
      ['text', 3],
    ]);
    expect(shiftBlock(blocks, blocks[0].id, -1).map((b) => b.type)).toEqual(['heading', 'text', 'image']);
    expect(shiftBlock(blocks, blocks[2].id, 1).map((b) => b.type)).toEqual(['heading', 'text', 'image']);
    expect(moveBlockTo(blocks, blocks[2].id, blocks[0].id).map((b) => [b.type, b.order])).toEqual([
      ['image', 1],
      ['heading', 2],
      ['text', 3],
    ]);
  });

  it('previews blocks as a person reads them: texts, file names with sizes, quiz titles with question counts', () => {
    const [heading, text, image] = three();
    const uuid = '/api/files/0b7f3c9e-1a2b-4c5d-8e9f-001122334455';
    expect(blockPreview(heading)).toBe('Новый заголовок');
    expect(blockPreview(text)).toBe('Текст не введён');
    expect(blockPreview(image)).toBe('не указан');
    expect(blockPreview({ ...image, content: { src: `${uuid}.png`, name: 'схема.png', bytes: 44 } } as ContentBlock)).toBe(
      'схема.png · 44\u00a0Б',
    );
    // Uploaded before names were kept: never the uuid.
    expect(blockPreview({ ...image, content: { url: `${uuid}.PNG` } } as ContentBlock)).toBe('Загруженный файл (.png)');
    expect(blockPreview({ ...image, content: { src: 'https://cdn.example.ru/a.png' } } as ContentBlock)).toBe(
      'https://cdn.example.ru/a.png',
    );
    const file = createBlock('file', 'l', 0);
    expect(blockPreview({ ...file, content: { src: `${uuid}.pdf`, name: 'Регламент.pdf', size: '2.50' } } as ContentBlock)).toBe(
      'Регламент.pdf · 2,50\u00a0МБ',
    );
    const quiz = { ...createBlock('quiz', 'l', 0), content: { quizId: 'q1', questionsCount: 2 } } as ContentBlock;
    expect(blockPreview(createBlock('quiz', 'l', 0))).toBe('не указан');
    expect(blockPreview(quiz, new Map([['q1', { title: 'Итоговый тест', questionsCount: 5 }]]))).toBe(
      'Итоговый тест · Вопросов: 5',
    );
    expect(blockPreview(quiz)).toBe('Квиз · Вопросов: 2');
  });
});
