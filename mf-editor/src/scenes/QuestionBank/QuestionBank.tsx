import { useState } from 'react';
import styled from 'styled-components';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ADDABLE_QUESTION_TYPES,
  BANK_MSG,
  QUESTION_TYPE_LABELS,
  bankQuestionInputSchema,
  newQuestion,
  type BankQuestion,
  type Question,
  type QuestionType,
} from '@portal/contracts';
import {
  Button,
  CodeSelect,
  ConfirmDialog,
  Dialog,
  ErrorBox,
  FormActions,
  Input,
  Label,
  Muted,
  Page,
  PagedList,
  PageHeader,
  PlainList,
  Select,
} from '@portal/ui';
import { errorMessage, navigate, paths } from '@portal/web-core';
import { readAgain } from '@portal/web-core/query';
import { bankKey, deleteBankQuestion, fetchBank, fetchBankQuestion, saveBankQuestion } from '../../api/content';
import { isConflict } from '../../autosave/savers';
import { DialogActions, DialogForm } from '../../components/Dialog';
import { QuestionForm } from '../../components/quiz/QuestionForm';

/** What the form holds: the question, its tags as typed (comma-separated), and the version it was opened on. */
interface BankDraft {
  id: string | null;
  version?: number;
  tags: string;
  question: Question;
}

const draftOfStored = (q: BankQuestion): BankDraft => ({
  id: q.id,
  version: q.version,
  tags: q.tags.join(', '),
  question: structuredClone(q.question),
});
const tagsOf = (text: string) =>
  text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);

/**
 * /editor/:courseId/bank: a course's question bank. Questions with tags, from which a quiz draws N
 * per tag for each attempt («Настройки» of the quiz editor). Authors read; the course's authors write.
 */
export function QuestionBank({ courseId }: { courseId: string }) {
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [tag, setTag] = useState('');
  const [newType, setNewType] = useState<QuestionType>('single_choice');
  const [draft, setDraft] = useState<BankDraft | null>(null);
  const [deleting, setDeleting] = useState<BankQuestion | null>(null);
  const list = useQuery({
    queryKey: bankKey(courseId, page, tag),
    queryFn: ({ signal }) => fetchBank(courseId, page, tag, signal),
    placeholderData: keepPreviousData,
  });
  const refresh = () => readAgain(queryClient, bankKey(courseId));
  const remove = useMutation({
    mutationFn: (q: BankQuestion) => deleteBankQuestion(courseId, q.id),
    onSuccess: () => {
      setDeleting(null);
      void refresh();
    },
  });

  return (
    <Page data-mf="mf_editor">
      <PageHeader $gap={16}>
        <div>
          <h1>{BANK_MSG.title}</h1>
          <Muted>
            Вопросы с метками. Квиз курса может брать из банка по N случайных вопросов на метку: у каждой попытки своя выборка
            (вкладка «Настройки» редактора квиза).
          </Muted>
        </div>
        <Button type="button" $variant="outline" onClick={() => navigate(paths.editor(courseId))}>
          ← К курсу
        </Button>
      </PageHeader>

      <Toolbar>
        <Label>
          Метка
          <Select
            value={tag}
            onChange={(e) => {
              setTag(e.target.value);
              setPage(1);
            }}
          >
            <option value="">Все метки</option>
            {list.data?.tags.map((t) => (
              <option key={t.tag} value={t.tag}>
                {t.tag} ({t.count})
              </option>
            ))}
          </Select>
        </Label>
        <Label>
          Тип нового вопроса
          <CodeSelect codes={ADDABLE_QUESTION_TYPES} labels={QUESTION_TYPE_LABELS} value={newType} onValue={setNewType} />
        </Label>
        <Button type="button" onClick={() => setDraft({ id: null, tags: tag, question: newQuestion(newType, 'bank', 0) })}>
          Добавить вопрос
        </Button>
      </Toolbar>

      <PagedList
        query={list}
        failed={(error) => <ErrorBox>{errorMessage(error, 'Не удалось загрузить банк вопросов')}</ErrorBox>}
        empty={<Muted>В банке пока нет вопросов{tag ? ` с меткой «${tag}»` : ''}.</Muted>}
        onPage={setPage}
      >
        {(rows) => (
          <PlainList aria-label={BANK_MSG.title}>
            {rows.map((q) => (
              <Item key={q.id}>
                <div>
                  <strong>{q.question.question}</strong>
                  <Muted>
                    {QUESTION_TYPE_LABELS[q.question.type]} · метки: {q.tags.join(', ')}
                  </Muted>
                </div>
                <Actions>
                  <Button type="button" $variant="outline" $size="sm" onClick={() => setDraft(draftOfStored(q))}>
                    Изменить
                  </Button>
                  <Button type="button" $variant="ghost" $size="sm" onClick={() => setDeleting(q)}>
                    Удалить
                  </Button>
                </Actions>
              </Item>
            ))}
          </PlainList>
        )}
      </PagedList>

      {draft && (
        <BankQuestionDialog
          courseId={courseId}
          initial={draft}
          onClose={() => setDraft(null)}
          onSaved={() => {
            setDraft(null);
            void refresh();
          }}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title="Удалить вопрос из банка?"
          message={`«${deleting.question.question}» больше не попадёт в новые попытки; уже начатые попытки его сохранят.`}
          confirmLabel="Удалить"
          busy={remove.isPending}
          onCancel={() => setDeleting(null)}
          onConfirm={() => remove.mutate(deleting)}
        />
      )}
      {remove.isError && <ErrorBox>{errorMessage(remove.error)}</ErrorBox>}
    </Page>
  );
}

/** Adding or changing one bank question; a save based on an old version offers their version or overwriting. */
function BankQuestionDialog({
  courseId,
  initial,
  onClose,
  onSaved,
}: {
  courseId: string;
  initial: BankDraft;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [draft, setDraft] = useState(initial);
  const [problem, setProblem] = useState<string | null>(null);
  const [conflict, setConflict] = useState(false);
  const [saving, setSaving] = useState(false);

  const save = async (version = draft.version) => {
    const parsed = bankQuestionInputSchema.safeParse({ tags: tagsOf(draft.tags), question: draft.question });
    if (!parsed.success) return setProblem(parsed.error.issues[0].message);
    setSaving(true);
    setProblem(null);
    try {
      await saveBankQuestion(courseId, draft.id, { tags: parsed.data.tags, question: parsed.data.question }, version);
      onSaved();
    } catch (err) {
      if (isConflict(err)) setConflict(true);
      else setProblem(errorMessage(err));
    } finally {
      setSaving(false);
    }
  };

  /** «Загрузить их версию»: the stored question replaces the form; «Перезаписать»: saved on the stored version. */
  const settle = async (choice: 'theirs' | 'overwrite') => {
    try {
      const stored = await fetchBankQuestion(courseId, draft.id!);
      setConflict(false);
      if (choice === 'theirs') setDraft(draftOfStored(stored));
      else {
        setDraft((d) => ({ ...d, version: stored.version }));
        await save(stored.version);
      }
    } catch (err) {
      setConflict(false);
      setProblem(errorMessage(err));
    }
  };

  return (
    <Dialog open title={draft.id ? 'Вопрос банка' : 'Новый вопрос банка'} onClose={onClose} wide>
      <DialogForm onSubmit={() => void save()}>
        <Label>
          Метки (через запятую)
          <Input value={draft.tags} maxLength={500} onChange={(e) => setDraft({ ...draft, tags: e.target.value })} />
        </Label>
        <QuestionForm
          question={draft.question}
          index={0}
          count={1}
          onChange={(question) => setDraft({ ...draft, question })}
          onRemove={onClose}
        />
        {conflict && (
          <ErrorBox role="alert">
            Этот вопрос изменил другой автор, пока вы его редактировали.
            <DialogActions>
              <Button type="button" $variant="outline" onClick={() => void settle('theirs')}>
                Загрузить их версию
              </Button>
              <Button type="button" $variant="destructive" onClick={() => void settle('overwrite')}>
                Перезаписать
              </Button>
            </DialogActions>
          </ErrorBox>
        )}
        {problem && <ErrorBox>{problem}</ErrorBox>}
        <FormActions busy={saving} submitLabel={saving ? 'Сохранение...' : 'Сохранить вопрос'} onCancel={onClose} />
      </DialogForm>
    </Dialog>
  );
}

const Toolbar = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 12px;
  align-items: end;
  margin: 16px 0;
`;
const Item = styled.li`
  display: flex;
  justify-content: space-between;
  gap: 12px;
  padding: 12px;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: 8px;
  p {
    margin: 4px 0 0;
  }
`;
const Actions = styled.div`
  display: flex;
  gap: 6px;
  align-items: start;
`;
