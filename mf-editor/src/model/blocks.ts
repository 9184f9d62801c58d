import {
  DEFAULT_BLOCK_CONTENT,
  EDITOR_MSG,
  PROGRESS_MSG,
  formatMessage,
  SCORM_MSG,
  type ContentBlock,
  type ContentBlockType,
} from '@portal/contracts';
import { fileSizeLabel } from '@portal/ui';
import { newId } from './ids';

/** The palette's names of the content block types. */
export const BLOCK_TYPE_LABELS: Record<ContentBlockType, string> = {
  heading: 'Заголовок',
  text: 'Текст',
  image: 'Изображение',
  video: 'Видео',
  audio: 'Аудио',
  file: 'Файл',
  quiz: 'Квиз',
  scorm: SCORM_MSG.uploadLabel,
};

export const byOrder = (blocks: readonly ContentBlock[]): ContentBlock[] => [...blocks].sort((a, b) => a.order - b.order);

/** Orders 1..n after every delete or move. */
export const renumber = (blocks: readonly ContentBlock[]): ContentBlock[] =>
  blocks.map((b, i) => (b.order === i + 1 ? b : { ...b, order: i + 1 }));

/** A new block of a type with the spec's default content (section 9), numbered count + 1. */
export function createBlock(type: ContentBlockType, lessonId: string, count: number): ContentBlock {
  return { id: newId(), type, order: count + 1, lessonId, content: structuredClone(DEFAULT_BLOCK_CONTENT[type]) } as ContentBlock;
}

export const addBlock = (
  blocks: readonly ContentBlock[],
  type: ContentBlockType,
  lessonId: string,
): { blocks: ContentBlock[]; added: ContentBlock } => {
  const added = createBlock(type, lessonId, blocks.length);
  return { blocks: [...byOrder(blocks), added], added };
};

/** A copy gets a new id and the order one higher, right after the original. */
export function copyBlock(blocks: readonly ContentBlock[], id: string): { blocks: ContentBlock[]; copy: ContentBlock | null } {
  const list = byOrder(blocks);
  const index = list.findIndex((b) => b.id === id);
  if (index < 0) return { blocks: list, copy: null };
  const copy = { ...structuredClone(list[index]), id: newId(), order: list[index].order + 1 } as ContentBlock;
  list.splice(index + 1, 0, copy);
  return { blocks: renumber(list), copy };
}

export function removeBlock(blocks: readonly ContentBlock[], id: string): ContentBlock[] {
  return renumber(byOrder(blocks).filter((b) => b.id !== id));
}

/** One step up (-1) or down (+1); at an end nothing moves. */
export function shiftBlock(blocks: readonly ContentBlock[], id: string, step: -1 | 1): ContentBlock[] {
  const list = byOrder(blocks);
  const from = list.findIndex((b) => b.id === id);
  const to = from + step;
  if (from < 0 || to < 0 || to >= list.length) return list;
  [list[from], list[to]] = [list[to], list[from]];
  return renumber(list);
}

/** A drop: the dragged block takes the place of the one it was dropped on. */
export function moveBlockTo(blocks: readonly ContentBlock[], activeId: string, overId: string): ContentBlock[] {
  const list = byOrder(blocks);
  const from = list.findIndex((b) => b.id === activeId);
  const to = list.findIndex((b) => b.id === overId);
  if (from < 0 || to < 0 || from === to) return list;
  const [moved] = list.splice(from, 1);
  list.splice(to, 0, moved);
  return renumber(list);
}

export const updateBlockContent = (
  blocks: readonly ContentBlock[],
  id: string,
  content: Record<string, unknown>,
): ContentBlock[] => blocks.map((b) => (b.id === id ? ({ ...b, content: { ...b.content, ...content } } as ContentBlock) : b));

const mediaUrl = (content: { src?: string; url?: string }) => content.src || content.url || '';

/** What the block panel knows about the quizzes the blocks hold (read by `useQuizzesOf`). */
export type QuizTitles = ReadonlyMap<string, { title: string; questionsCount: number }>;

/** A text block nobody has written in yet: said as such, not as the placeholder's words. */
export const EMPTY_TEXT_PREVIEW = 'Текст не введён';

/** Files uploaded here are named by a random uuid: the address means nothing to a person. */
const UPLOADED = /^\/api\/files\/[^/?#]+?(?:\.([a-z0-9]{1,8}))?$/i;

/** A media or file block: its name and size when it was uploaded, else the address typed in. */
function mediaPreview(content: { src?: string; url?: string; name?: string; bytes?: number; size?: string | number }): string {
  const url = mediaUrl(content);
  const size = fileSizeLabel(content);
  const uploaded = UPLOADED.exec(url);
  const name =
    content.name?.trim() || (uploaded ? `Загруженный файл${uploaded[1] ? ` (.${uploaded[1].toLowerCase()})` : ''}` : url);
  if (!name) return EDITOR_MSG.notSpecified;
  return size ? `${name} · ${size}` : name;
}

/**
 * The lesson's block panel, made readable: text for text and heading; for media and
 * files the file's name and size (or the address typed in); for a quiz its title and question count.
 */
export function blockPreview(block: ContentBlock, quizzes: QuizTitles = new Map()): string {
  switch (block.type) {
    case 'heading':
      return block.content.text;
    case 'text':
      return block.content.text || EMPTY_TEXT_PREVIEW;
    case 'image':
    case 'video':
    case 'audio':
    case 'file':
      return mediaPreview(block.content);
    case 'quiz': {
      const id = block.content.quizId;
      if (!id) return EDITOR_MSG.notSpecified;
      const quiz = quizzes.get(id);
      const count = quiz?.questionsCount ?? block.content.questionsCount ?? 0;
      return `${quiz?.title ?? 'Квиз'} · ${formatMessage(PROGRESS_MSG.questionsCount, { n: count })}`;
    }
    case 'scorm':
      return block.content.title || SCORM_MSG.uploadLabel;
  }
}
