import { escapeUTF8 as escape } from 'entities';
import { formatMessage, type ContentBlock } from '@portal/contracts';
import { ENGINE_MSG, QUESTION_TYPE_LABELS, type Question, type QuestionType } from '@portal/quiz-engine';
import { sanitizeRichHtml } from '../commands/richText';
import type { CourseExport, ExportedFile, ExportedQuiz } from './collect';
import { mediaAddress } from './collect';
import { PACKAGE_TEXT } from './messages';

/** The page the LMS launches, and the player's own files beside it. */
export const LAUNCH_FILE = 'index.html';
export const PLAYER_SCRIPT_FILE = 'player.js';
export const PLAYER_STYLE_FILE = 'player.css';
/** Where the portal's files go in the zip: `files/<stored name>`. */
export const zipPathOf = (file: Pick<ExportedFile, 'name'>): string => `files/${file.name}`;

/** The question types the package shows and grades in the learner's browser; the others are named and skipped. */
export const PACKAGE_QUESTION_TYPES: readonly QuestionType[] = [
  'single_choice',
  'multiple_choice',
  'true_false',
  'short_answer',
  'numeric',
];
const shownInPackage = (q: Question) => PACKAGE_QUESTION_TYPES.includes(q.type);

/** What the player's script reads: the lessons in order and each quiz's answer key (graded offline). */
export interface PackageData {
  lessons: Array<{ id: string; title: string }>;
  quizzes: Array<{
    id: string;
    passingScore: number;
    scoring: string;
    questions: Array<Pick<Question, 'id' | 'type' | 'points' | 'correctAnswers' | 'correctAnswer' | 'tolerance'>>;
  }>;
}

const attr = (value: string) => `"${escape(value)}"`;
const externalLink = (url: string, label: string) =>
  `<p><a href=${attr(url)} target="_blank" rel="noopener noreferrer">${escape(label)}</a></p>`;
const note = (text: string) => `<p class="note">${escape(text)}</p>`;

function renderQuestion(q: Question, name: string): string {
  const choice = (kind: 'radio' | 'checkbox', labels: string[], values: string[]) =>
    labels
      .map(
        (label, i) =>
          `<label class="option"><input type=${attr(kind)} name=${attr(name)} value=${attr(values[i])}> ${escape(label)}</label>`,
      )
      .join('');
  switch (q.type) {
    case 'single_choice':
      return choice(
        'radio',
        q.options,
        q.options.map((_, i) => String(i)),
      );
    case 'multiple_choice':
      return choice(
        'checkbox',
        q.options,
        q.options.map((_, i) => String(i)),
      );
    case 'true_false':
      return choice('radio', [ENGINE_MSG.trueLabel, ENGINE_MSG.falseLabel], ['true', 'false']);
    case 'short_answer':
    case 'numeric':
      return `<input type="text" class="answer" name=${attr(name)} placeholder=${attr(PACKAGE_TEXT.answerPlaceholder)}>`;
    default:
      return '';
  }
}

function renderQuiz(quiz: ExportedQuiz | undefined, formIndex: number): string {
  if (!quiz) return note(PACKAGE_TEXT.missingQuiz);
  const questions = quiz.questions
    .map((q, i) => {
      if (!shownInPackage(q))
        return `<div class="question skipped"><p>${escape(q.question)}</p>${note(
          formatMessage(PACKAGE_TEXT.skippedQuestion, { type: QUESTION_TYPE_LABELS[q.type] }),
        )}</div>`;
      return `<fieldset class="question" data-question=${attr(q.id)}><legend>${escape(q.question)}</legend>${renderQuestion(
        q,
        `q-${formIndex}-${i}`,
      )}</fieldset>`;
    })
    .join('\n');
  return `<form class="quiz" data-quiz=${attr(quiz.id)}>
<h3>${escape(quiz.title)}</h3>
<p class="hint">${escape(formatMessage(PACKAGE_TEXT.passingScore, { score: quiz.settings.passingScore }))}</p>
${questions}
<button type="submit">${escape(PACKAGE_TEXT.check)}</button>
<p class="quiz-result" role="status"></p>
</form>`;
}

/** A text block: its stored html, sanitised again on the way out; plain text as paragraphs otherwise. */
function renderText(content: { text: string; html?: string }): string {
  if (content.html) return `<div class="text">${sanitizeRichHtml(content.html)}</div>`;
  const paragraphs = content.text.split(/\n+/).filter((line) => line.trim());
  return `<div class="text">${paragraphs.map((p) => `<p>${escape(p)}</p>`).join('')}</div>`;
}

function renderBlock(block: ContentBlock, data: CourseExport, formIndex: () => number): string {
  const local = (address: string) => data.files.get(address);
  const missing = (address: string) => address.startsWith('/');
  switch (block.type) {
    case 'heading': {
      const level = Math.min(4, Math.max(2, block.content?.level ?? 2));
      return `<h${level}>${escape(block.content?.text ?? '')}</h${level}>`;
    }
    case 'text':
      return block.content ? renderText(block.content) : '';
    case 'image': {
      const address = block.content ? mediaAddress(block.content) : '';
      const file = local(address);
      const caption = block.content?.caption ? `<figcaption>${escape(block.content.caption)}</figcaption>` : '';
      if (file) return `<figure><img src=${attr(zipPathOf(file))} alt=${attr(block.content?.alt ?? '')}>${caption}</figure>`;
      if (!address) return '';
      if (missing(address)) return note(formatMessage(PACKAGE_TEXT.missingFile, { name: block.content?.name ?? address }));
      return `<figure>${externalLink(address, block.content?.alt || PACKAGE_TEXT.openImage)}${caption}</figure>`;
    }
    case 'video':
    case 'audio': {
      const content = block.content;
      const address = content ? mediaAddress(content) : '';
      const file = local(address);
      const title = content?.title ? `<h3>${escape(content.title)}</h3>` : '';
      const description = content?.description ? `<p>${escape(content.description)}</p>` : '';
      const poster = block.type === 'video' && block.content?.poster ? local(block.content.poster) : undefined;
      if (file) {
        const posterAttr = poster ? ` poster=${attr(zipPathOf(poster))}` : '';
        return `<div class="media">${title}<${block.type} controls preload="metadata" src=${attr(zipPathOf(file))}${posterAttr}></${block.type}>${description}</div>`;
      }
      if (!address) return '';
      if (missing(address)) return note(formatMessage(PACKAGE_TEXT.missingFile, { name: content?.name ?? address }));
      const label = content?.title || (block.type === 'video' ? PACKAGE_TEXT.openVideo : PACKAGE_TEXT.openAudio);
      return `<div class="media">${externalLink(address, label)}${description}</div>`;
    }
    case 'file': {
      const content = block.content;
      const address = content ? mediaAddress(content) : '';
      const file = local(address);
      const name = content?.name || file?.name || address;
      const description = content?.description ? `<p>${escape(content.description)}</p>` : '';
      if (file)
        return `<div class="file"><a href=${attr(zipPathOf(file))} download=${attr(name)}>${escape(
          `${PACKAGE_TEXT.download} «${name}»`,
        )}</a>${description}</div>`;
      if (!address) return '';
      if (missing(address)) return note(formatMessage(PACKAGE_TEXT.missingFile, { name }));
      return `<div class="file">${externalLink(address, `${PACKAGE_TEXT.download} «${name}»`)}${description}</div>`;
    }
    case 'quiz':
      return renderQuiz(block.content?.quizId ? data.quizzes.get(block.content.quizId) : undefined, formIndex());
    case 'scorm':
      return note(PACKAGE_TEXT.scormLesson);
  }
}

/** The data the player script reads, as JSON safe inside a <script> element (no `</script>` can close it). */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

export function packageDataOf(data: CourseExport): PackageData {
  const lessons = data.modules.flatMap((m) => m.lessons.map((l) => ({ id: l.id, title: l.title })));
  const used = new Set(
    data.modules.flatMap((m) =>
      m.lessons.flatMap((l) => l.blocks.flatMap((b) => (b.type === 'quiz' && b.content?.quizId ? [b.content.quizId] : []))),
    ),
  );
  const quizzes = [...data.quizzes.values()]
    .filter((q) => used.has(q.id))
    .map((q) => ({
      id: q.id,
      passingScore: q.settings.passingScore,
      scoring: q.settings.scoring,
      questions: q.questions.filter(shownInPackage).map((question) => ({
        id: question.id,
        type: question.type,
        points: question.points ?? 1,
        correctAnswers: question.correctAnswers,
        correctAnswer: question.correctAnswer,
        tolerance: question.tolerance,
      })),
    }));
  return { lessons, quizzes };
}

/** The launch page: every lesson rendered (one shown at a time by the player), the contents, the data. */
export function renderLaunchPage(data: CourseExport): string {
  let forms = 0;
  const formIndex = () => forms++;
  let n = 0;
  const total = data.modules.reduce((sum, m) => sum + m.lessons.length, 0);
  const contents = data.modules
    .map(
      (m) =>
        `<li><span class="module">${escape(m.title)}</span><ol>${m.lessons
          .map((l) => `<li><a href="#" data-goto=${attr(String(n++))}>${escape(l.title)}</a></li>`)
          .join('')}</ol></li>`,
    )
    .join('');
  n = 0;
  const sections = data.modules
    .flatMap((m) =>
      m.lessons.map((l) => {
        const index = n++;
        const blocks = l.blocks.map((b) => renderBlock(b, data, formIndex)).join('\n');
        return `<section class="lesson" data-lesson=${attr(String(index))} hidden>
<p class="crumbs">${escape(m.title)} · ${escape(formatMessage(PACKAGE_TEXT.lessonOf, { n: index + 1, total }))}</p>
<h2 class="lesson-title">${escape(l.title)}</h2>
${blocks}
</section>`;
      }),
    )
    .join('\n');
  return `<!DOCTYPE html>
<html lang="ru">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(data.course.title)}</title>
<link rel="stylesheet" href="${PLAYER_STYLE_FILE}">
</head>
<body>
<header><h1>${escape(data.course.title)}</h1><p class="status" role="status"></p></header>
<div class="layout">
<nav aria-label=${attr(PACKAGE_TEXT.contents)}><h2>${escape(PACKAGE_TEXT.contents)}</h2><ol>${contents}</ol></nav>
<main>
${sections}
<div class="pager"><button type="button" data-step="-1">${escape(PACKAGE_TEXT.previous)}</button><button type="button" data-step="1">${escape(
    PACKAGE_TEXT.next,
  )}</button></div>
</main>
</div>
<script type="application/json" id="course-data">${scriptJson(packageDataOf(data))}</script>
<script type="application/json" id="course-text">${scriptJson(PACKAGE_TEXT)}</script>
<script src="${PLAYER_SCRIPT_FILE}"></script>
</body>
</html>
`;
}

/**
 * The manifest: ADL SCORM 1.2, one organization whose one item launches the course's one SCO (the
 * modules and lessons are the SCO's own contents, see docs/decisions/scorm-export.md), and the SCO's
 * resource listing every file of the package.
 */
export function renderManifest(data: CourseExport, files: readonly string[]): string {
  const id = String(data.course._id);
  const title = escape(data.course.title);
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="portal-course-${id}" version="1.0"
  xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
  </metadata>
  <organizations default="org-${id}">
    <organization identifier="org-${id}">
      <title>${title}</title>
      <item identifier="item-${id}" identifierref="sco-${id}" isvisible="true">
        <title>${title}</title>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="sco-${id}" type="webcontent" adlcp:scormtype="sco" href="${LAUNCH_FILE}">
${files.map((f) => `      <file href=${attr(f)}/>`).join('\n')}
    </resource>
  </resources>
</manifest>
`;
}
