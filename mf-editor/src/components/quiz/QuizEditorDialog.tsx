import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import styled from 'styled-components';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ADDABLE_QUESTION_TYPES, QUESTION_TYPE_LABELS, quizSettingsSchema, type Quiz } from '@portal/contracts';
import { Button, ConfirmDialog, Dialog, ErrorBox, FormActions, Input, Label, Muted, Row, Stack, TextArea } from '@portal/ui';
import { errorMessage } from '@portal/web-core';
import { readAgain } from '@portal/web-core/query';
import { settleQuizConflict, type ConflictChoice } from '../../autosave/conflicts';
import { isConflict } from '../../autosave/savers';
import { useBackend } from '../../backend/backend';
import { ConflictDialog, DialogActions, DialogForm } from '../Dialog';
import { DrawsForm } from './DrawsForm';
import { QuestionForm } from './QuestionForm';
import { RemoteQuizPreview } from './RemoteQuizPreview';
import { SettingsForm } from './SettingsForm';
import {
  addQuestion,
  checkDraft,
  draftOf,
  duplicateQuestion,
  moveItem,
  questionIndexOf,
  renumberQuestions,
  type QuizDraft,
} from './quizDraft';

interface QuizEditorDialogProps {
  /** null: a new quiz. */
  quizId: string | null;
  courseId: string | null;
  onClose: () => void;
  onSaved: (quiz: Quiz) => void;
}

/** The quiz editor: tabs 'Вопросы' and 'Настройки', save, preview. */
export function QuizEditorDialog({ quizId, courseId, onClose, onSaved }: QuizEditorDialogProps) {
  const backend = useBackend();
  const stored = useQuery({
    queryKey: ['editor', backend.demo, 'quiz', quizId],
    queryFn: () => backend.getQuiz(quizId as string),
    enabled: !!quizId,
  });
  const title = quizId ? 'Редактор квиза' : 'Новый квиз';

  if (!quizId || stored.data) {
    return (
      <QuizForm
        initial={draftOf(stored.data ?? null)}
        version={stored.data?.version}
        quizId={quizId}
        courseId={courseId}
        onClose={onClose}
        onSaved={onSaved}
      />
    );
  }
  return (
    <Dialog open title={title} onClose={onClose} wide>
      {stored.isPending && <Muted role="status">Загрузка квиза...</Muted>}
      {stored.isError && (
        <>
          <ErrorBox>{errorMessage(stored.error)}</ErrorBox>
          <DialogActions>
            <Button type="button" $variant="outline" onClick={onClose}>
              Закрыть
            </Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}

export const QUIZ_CLOSE_MSG = {
  title: 'Закрыть редактор квиза?',
  text: 'Изменения квиза не сохранены и будут потеряны. Чтобы сохранить их, нажмите «Отмена», затем «Сохранить квиз».',
  confirm: 'Закрыть без сохранения',
} as const;

type Tab = 'questions' | 'settings';
const TABS: Array<[Tab, string]> = [
  ['questions', 'Вопросы'],
  ['settings', 'Настройки'],
];

function QuizForm({
  initial,
  version,
  quizId,
  courseId,
  onClose,
  onSaved,
}: {
  initial: QuizDraft;
  /** The version of the stored quiz the form was opened on: a save is based on it. */
  version?: number;
  quizId: string | null;
  courseId: string | null;
  onClose: () => void;
  onSaved: (quiz: Quiz) => void;
}) {
  const backend = useBackend();
  const queryClient = useQueryClient();
  // What is stored and its version: the form's starting point, until «Загрузить их версию» replaces both.
  const [stored, setStored] = useState({ draft: initial, version });
  const [draft, setDraft] = useState(initial);
  /** Another author saved the quiz first (412): the draft stays until the author chooses. */
  const [conflict, setConflict] = useState(false);
  const [resolving, setResolving] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const [tab, setTab] = useState<Tab>('questions');
  const [previewing, setPreviewing] = useState(false);
  const [problem, setProblem] = useState<{ message: string; path: string } | null>(null);
  const [saving, setSaving] = useState(false);
  const [askingToClose, setAskingToClose] = useState(false);
  const baseId = useId();
  const questionList = useRef<HTMLDivElement>(null);
  const problemIndex = problem ? questionIndexOf(problem.path) : null;
  // A quiz that cannot be saved shows the question at fault: its tab, scrolled to it.
  useEffect(() => {
    if (problemIndex === null) return;
    setTab('questions');
    requestAnimationFrame(() =>
      questionList.current?.children[problemIndex]?.scrollIntoView({ block: 'center', behavior: 'smooth' }),
    );
  }, [problem, problemIndex]);
  const dirty = JSON.stringify(draft) !== JSON.stringify(stored.draft);
  /** Escape, ✕ and «Отмена» ask before unsaved work is thrown away. */
  const requestClose = () => (dirty ? setAskingToClose(true) : onClose());

  const patch = (p: Partial<QuizDraft>) => {
    setDraft((d) => ({ ...d, ...p }));
    setProblem(null);
  };
  const setQuestions = (questions: QuizDraft['questions']) => patch({ questions: renumberQuestions(questions) });

  const done = (saved: Quiz) => {
    queryClient.setQueryData(['editor', backend.demo, 'quiz', saved.id], saved);
    void readAgain(queryClient, ['editor', backend.demo, 'quizzes']);
    onSaved(saved);
  };

  const save = async () => {
    const check = checkDraft(draft, courseId);
    if (!check.ok) {
      setProblem(check);
      setTab(check.path.startsWith('settings') ? 'settings' : 'questions');
      return;
    }
    setSaving(true);
    setNote(null);
    try {
      done(await backend.saveQuiz(quizId, check.input, stored.version));
    } catch (err) {
      if (quizId && isConflict(err)) {
        setConflict(true);
        return;
      }
      const message = errorMessage(err);
      const field = (err as { field?: string }).field ?? '';
      setProblem({ message, path: field });
    } finally {
      setSaving(false);
    }
  };

  /**
   * The author's answer to a conflict (settleQuizConflict): «Перезаписать» stores the draft and
   * closes as a save does; «Загрузить их версию» puts the stored quiz in the form; «Сохранить мою
   * как копию» stores the draft as a new quiz of the course, then puts the stored quiz in the form.
   */
  const resolveConflict = async (choice: ConflictChoice) => {
    const check = checkDraft(draft, courseId);
    if (!quizId || !check.ok) return setConflict(false);
    setResolving(true);
    try {
      const outcome = await settleQuizConflict(backend, quizId, check.input, choice);
      setConflict(false);
      if ('saved' in outcome) return done(outcome.saved);
      const theirs = draftOf(outcome.theirs);
      queryClient.setQueryData(['editor', backend.demo, 'quiz', quizId], outcome.theirs);
      setStored({ draft: theirs, version: outcome.theirs.version });
      setDraft(theirs);
      setProblem(null);
      if (outcome.copy) {
        void readAgain(queryClient, ['editor', backend.demo, 'quizzes']);
        setNote(`Ваша версия сохранена как квиз «${outcome.copy.title}»: его можно выбрать кнопкой «Выбрать квиз».`);
      }
    } catch (err) {
      // The draft stays; the dialog closes so that the author can save again or close.
      setConflict(false);
      setProblem({ message: errorMessage(err), path: (err as { field?: string }).field ?? '' });
    } finally {
      setResolving(false);
    }
  };

  const onTabKey = (e: KeyboardEvent<HTMLButtonElement>) => {
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
    const next: Tab = tab === 'questions' ? 'settings' : 'questions';
    setTab(next);
    document.getElementById(`${baseId}-tab-${next}`)?.focus();
  };

  const heading = quizId ? 'Редактор квиза' : 'Новый квиз';
  const shell = (content: ReactNode, title: string, close: () => void) => (
    <Dialog open title={title} onClose={close} wide>
      {content}
      {conflict && (
        <ConflictDialog title={draft.title.trim() || 'без названия'} busy={resolving} onChoose={(c) => void resolveConflict(c)} />
      )}
      {askingToClose && (
        <ConfirmDialog
          title={QUIZ_CLOSE_MSG.title}
          message={QUIZ_CLOSE_MSG.text}
          confirmLabel={QUIZ_CLOSE_MSG.confirm}
          onCancel={() => setAskingToClose(false)}
          onConfirm={onClose}
        />
      )}
    </Dialog>
  );

  if (previewing) {
    const settings = quizSettingsSchema.safeParse({ ...draft.settings });
    const now = new Date().toISOString();
    const quiz: Quiz = {
      id: quizId ?? 'draft',
      title: draft.title.trim() || 'без названия',
      description: draft.description,
      courseId,
      version: 0,
      createdAt: now,
      updatedAt: now,
      questions: renumberQuestions(draft.questions),
      settings: settings.success ? settings.data : quizSettingsSchema.parse({}),
      // The preview shows the fixed questions; bank questions are drawn per attempt.
      draws: [],
    };
    // ✕ and Escape end the preview and return to the editor; the title is the quiz being written.
    return shell(<RemoteQuizPreview quiz={quiz} onClose={() => setPreviewing(false)} />, `Предпросмотр: ${quiz.title}`, () =>
      setPreviewing(false),
    );
  }

  return shell(
    <DialogForm onSubmit={() => void save()}>
      <Label>
        Название квиза
        <Input value={draft.title} maxLength={200} onChange={(e) => patch({ title: e.target.value })} />
      </Label>
      <Label>
        Описание квиза
        <TextArea rows={2} value={draft.description} onChange={(e) => patch({ description: e.target.value })} />
      </Label>

      <TabList role="tablist" aria-label="Разделы квиза">
        {TABS.map(([key, label]) => (
          <TabButton
            key={key}
            id={`${baseId}-tab-${key}`}
            type="button"
            role="tab"
            aria-selected={tab === key}
            aria-controls={`${baseId}-panel-${key}`}
            tabIndex={tab === key ? 0 : -1}
            $active={tab === key}
            onClick={() => setTab(key)}
            onKeyDown={onTabKey}
          >
            {label}
            {key === 'questions' ? ` (${draft.questions.length})` : ''}
          </TabButton>
        ))}
      </TabList>

      {tab === 'questions' ? (
        <Panel role="tabpanel" id={`${baseId}-panel-questions`} aria-labelledby={`${baseId}-tab-questions`}>
          <Row role="toolbar" aria-label="Добавить вопрос" $gap={6}>
            <Muted as="span">Добавить вопрос:</Muted>
            {ADDABLE_QUESTION_TYPES.map((type) => (
              <Button
                key={type}
                type="button"
                $variant="secondary"
                $size="sm"
                onClick={() => setQuestions(addQuestion(draft.questions, type))}
              >
                + {QUESTION_TYPE_LABELS[type]}
              </Button>
            ))}
          </Row>
          {draft.questions.length === 0 && <Muted>Вопросов пока нет. Добавьте первый кнопками выше.</Muted>}
          <Stack ref={questionList}>
            {draft.questions.map((q, i) => (
              <QuestionForm
                key={q.id}
                question={q}
                index={i}
                count={draft.questions.length}
                problem={problemIndex === i ? problem?.message : null}
                onChange={(next) => setQuestions(draft.questions.map((x, j) => (j === i ? next : x)))}
                onMove={(step) => setQuestions(moveItem(draft.questions, i, step))}
                onDuplicate={() => setQuestions(duplicateQuestion(draft.questions, i))}
                onRemove={() => setQuestions(draft.questions.filter((_, j) => j !== i))}
              />
            ))}
          </Stack>
        </Panel>
      ) : (
        <Panel role="tabpanel" id={`${baseId}-panel-settings`} aria-labelledby={`${baseId}-tab-settings`}>
          <SettingsForm value={draft.settings} onChange={(s) => patch({ settings: { ...draft.settings, ...s } })} />
          {!backend.demo && (
            <DrawsForm courseId={courseId} quizId={quizId} value={draft.draws} onChange={(draws) => patch({ draws })} />
          )}
        </Panel>
      )}

      {note && <Muted role="status">{note}</Muted>}
      {problem && (
        <ErrorBox>
          {problemIndex !== null && `Вопрос ${problemIndex + 1}: `}
          {problem.message}
        </ErrorBox>
      )}
      <FormActions busy={saving} submitLabel={saving ? 'Сохранение...' : 'Сохранить квиз'} onCancel={requestClose}>
        <Button type="button" $variant="outline" onClick={() => setPreviewing(true)}>
          Предпросмотр
        </Button>
      </FormActions>
    </DialogForm>,
    heading,
    requestClose,
  );
}

const TabList = styled.div`
  display: flex;
  gap: 4px;
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};
`;
const TabButton = styled.button<{ $active: boolean }>`
  font: inherit;
  font-weight: 600;
  padding: 8px 14px;
  cursor: pointer;
  background: none;
  color: ${({ theme, $active }) => ($active ? theme.colors.primary : theme.colors.muted)};
  border: none;
  border-bottom: 2px solid ${({ theme, $active }) => ($active ? theme.colors.primary : 'transparent')};
  margin-bottom: -1px;
`;
const Panel = styled.div`
  display: grid;
  gap: 12px;
  max-height: 52vh;
  overflow: auto;
  padding: 2px;
  > p {
    margin: 0;
  }
`;
