import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import styled from 'styled-components';
import { z } from 'zod';
import {
  CANDIDATE_LINK_MSG,
  MAX_LINK_TIME_LIMIT,
  MAX_LINK_USES,
  candidateLinkCreateSchema,
  canEditCourse,
  type CandidateLink,
  type CandidateLinkCreateInput,
  type CandidateLinkCreated,
  type CandidateLinkState,
} from '@portal/contracts';
import {
  Badge,
  Button,
  Card,
  Check,
  ConfirmDialog,
  EmptyState,
  Field,
  Input,
  LoadError,
  Loading,
  Muted,
  Page,
  Pager,
  RecordOptions,
  Select,
  useToast,
  useZodForm,
} from '@portal/ui';
import { useAuth } from '@portal/web-core';
import { readAgain } from '@portal/web-core/query';
import {
  CANDIDATE_LINKS_KEY,
  EDITABLE_COURSES_KEY,
  createCandidateLink,
  fetchCandidateLinks,
  fetchOutline,
  fetchPublishedCourses,
  outlineKey,
  revokeCandidateLink,
} from '../../api/player';
import { CardForm, Submit } from '../../components/CardForm';

const STATE_LABELS: Record<CandidateLinkState, { label: string; tone: 'success' | 'muted' | 'danger' | 'warning' }> = {
  active: { label: 'Действует', tone: 'success' },
  revoked: { label: 'Отозвана', tone: 'danger' },
  expired: { label: 'Истекла', tone: 'muted' },
  used_up: { label: 'Использована', tone: 'warning' },
};
const day = new Intl.DateTimeFormat('ru-RU', { dateStyle: 'short', timeZone: 'Europe/Moscow' });
const showDay = (value: string) => day.format(new Date(`${value}T12:00:00+03:00`));

/** The form's text fields as typed; the contracts' schema checks what they make. */
const linkFormSchema = z
  .object({
    courseId: z.string().min(1, 'Выберите курс'),
    lessonId: z.string().min(1, 'Выберите урок с тестом'),
    validUntil: z.string(),
    maxUses: z.string(),
    timeLimitMinutes: z.string(),
    showResult: z.boolean(),
  })
  .transform((v, ctx): CandidateLinkCreateInput => {
    const input = {
      courseId: v.courseId,
      lessonId: v.lessonId,
      validUntil: v.validUntil || null,
      maxUses: v.maxUses ? Number(v.maxUses) : null,
      timeLimitMinutes: v.timeLimitMinutes ? Number(v.timeLimitMinutes) : null,
      showResult: v.showResult,
    };
    const checked = candidateLinkCreateSchema.safeParse(input);
    if (!checked.success) {
      for (const issue of checked.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
      return z.NEVER;
    }
    return input;
  });
type LinkFormValues = z.input<typeof linkFormSchema>;

/** «Ссылки для кандидатов» (ADMIN, CURATOR): make a link to a quiz lesson, see who used it, revoke it. */
export function CandidateLinks() {
  const [page, setPage] = useState(1);
  const [made, setMade] = useState<CandidateLinkCreated | null>(null);
  const [revoking, setRevoking] = useState<CandidateLink | null>(null);
  const toast = useToast();
  const queries = useQueryClient();
  const links = useQuery({
    queryKey: [...CANDIDATE_LINKS_KEY, page],
    queryFn: ({ signal }) => fetchCandidateLinks(page, signal),
    placeholderData: keepPreviousData,
  });
  const revoke = useMutation({
    mutationFn: (id: string) => revokeCandidateLink(id),
    onSuccess: () => {
      setRevoking(null);
      toast.show('Ссылка отозвана');
      void readAgain(queries, CANDIDATE_LINKS_KEY);
    },
    onError: (err) => toast.failed(err),
  });

  return (
    <Page data-mf="mf_player">
      <h1>{CANDIDATE_LINK_MSG.screenTitle}</h1>
      <Muted>
        Кандидат открывает ссылку без учётной записи, указывает ФИО, email и даёт согласие на обработку персональных данных, затем
        проходит тест. Результат появится в «Результатах» с пометкой «{CANDIDATE_LINK_MSG.viaLink}».
      </Muted>

      <NewLink
        onMade={(answer) => {
          setMade(answer);
          void readAgain(queries, CANDIDATE_LINKS_KEY);
        }}
      />

      {made && (
        <Made role="status" aria-label="Новая ссылка">
          <strong>Ссылка создана. Скопируйте её сейчас: позже адрес не показывается.</strong>
          <LinkRow>
            <Input readOnly value={made.url} aria-label="Адрес ссылки" onFocus={(e) => e.currentTarget.select()} />
            <Button
              type="button"
              onClick={() =>
                void navigator.clipboard
                  ?.writeText(made.url)
                  .then(() => toast.show('Ссылка скопирована'))
                  .catch(() => toast.show('Не удалось скопировать — выделите адрес и скопируйте вручную'))
              }
            >
              Копировать
            </Button>
          </LinkRow>
        </Made>
      )}

      <h2>Созданные ссылки</h2>
      {links.isPending ? (
        <Loading />
      ) : links.isError && !links.data ? (
        <LoadError title="Не удалось загрузить ссылки" error={links.error} onRetry={() => void links.refetch()} />
      ) : !links.data || links.data.data.length === 0 ? (
        <EmptyState title="Ссылок пока нет" hint="Создайте первую: выберите курс и урок с тестом." />
      ) : (
        <>
          <TableWrap>
            <table aria-label="Ссылки для кандидатов" aria-busy={links.isFetching}>
              <thead>
                <tr>
                  <th scope="col">Тест</th>
                  <th scope="col">Действует до</th>
                  <th scope="col">Прохождений</th>
                  <th scope="col">Время</th>
                  <th scope="col">Результат кандидату</th>
                  <th scope="col">Состояние</th>
                  <th scope="col">Действие</th>
                </tr>
              </thead>
              <tbody>
                {links.data.data.map((l) => (
                  <tr key={l.id}>
                    <td>
                      {l.quizTitle}
                      <Muted as="span"> — {l.courseTitle}</Muted>
                    </td>
                    <td>{l.validUntil ? showDay(l.validUntil) : '—'}</td>
                    <td>{l.maxUses ? `${l.uses} из ${l.maxUses}` : l.uses}</td>
                    <td>{l.timeLimitMinutes ? `${l.timeLimitMinutes} мин` : 'как в тесте'}</td>
                    <td>{l.showResult ? 'показывается' : 'скрыт'}</td>
                    <td>
                      <Badge $tone={STATE_LABELS[l.state].tone}>{STATE_LABELS[l.state].label}</Badge>
                    </td>
                    <td>
                      {l.state !== 'revoked' && (
                        <Button
                          type="button"
                          $variant="outline"
                          $size="sm"
                          onClick={() => setRevoking(l)}
                          aria-label={`Отозвать ссылку на тест «${l.quizTitle}»`}
                        >
                          Отозвать
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
          <Pager of={links.data} onPage={setPage} />
        </>
      )}

      {revoking && (
        <ConfirmDialog
          title="Отозвать ссылку?"
          message={`Ссылка на тест «${revoking.quizTitle}» перестанет работать сразу. Уже начатые попытки сохранятся.`}
          confirmLabel="Отозвать"
          busy={revoke.isPending}
          onConfirm={() => revoke.mutate(revoking.id)}
          onCancel={() => setRevoking(null)}
        />
      )}
    </Page>
  );
}

/** The form of a new link: a published course the person may change, a lesson with a test, the terms. */
function NewLink({ onMade }: { onMade: (answer: CandidateLinkCreated) => void }) {
  const { user } = useAuth();
  const toast = useToast();
  const form = useZodForm<LinkFormValues, CandidateLinkCreateInput>(linkFormSchema, {
    courseId: '',
    lessonId: '',
    validUntil: '',
    maxUses: '',
    timeLimitMinutes: '',
    showResult: false,
  });
  const { errors } = form.formState;
  const courseId = form.watch('courseId');
  const courses = useQuery({ queryKey: EDITABLE_COURSES_KEY, queryFn: ({ signal }) => fetchPublishedCourses(signal) });
  const outline = useQuery({
    queryKey: outlineKey(courseId),
    queryFn: ({ signal }) => fetchOutline(courseId, signal),
    enabled: !!courseId,
  });
  const mine = (courses.data ?? []).filter((c) => user && canEditCourse(user, c));
  const quizLessons = (outline.data?.modules ?? []).flatMap((m) =>
    m.lessons.filter((l) => l.hasQuiz).map((l) => ({ ...l, module: m.title })),
  );
  const create = useMutation({
    mutationFn: createCandidateLink,
    onSuccess: (answer) => {
      onMade(answer);
      form.reset();
    },
    onError: (err) => toast.failed(err),
  });
  const submit = form.handleSubmit((input) => create.mutate(input));

  return (
    <Form onSubmit={submit} noValidate aria-label="Новая ссылка для кандидатов">
      <h2>Новая ссылка</h2>
      <Grid>
        <Field required label="Курс" error={errors.courseId?.message}>
          <Select {...form.register('courseId', { onChange: () => form.setValue('lessonId', '') })} disabled={courses.isPending}>
            <RecordOptions records={mine} loading={courses.isPending} placeholder="Выберите опубликованный курс" />
          </Select>
        </Field>
        <Field required label="Урок с тестом" error={errors.lessonId?.message}>
          <Select {...form.register('lessonId')} disabled={!courseId || outline.isPending}>
            <option value="">{courseId && outline.isPending ? 'Загрузка...' : 'Выберите урок'}</option>
            {quizLessons.map((l) => (
              <option key={l.id} value={l.id}>
                {l.module}: {l.title}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Действует до (включительно)" hint="Дата, или число прохождений, или оба" error={errors.validUntil?.message}>
          <Input type="date" {...form.register('validUntil')} />
        </Field>
        <Field label="Число прохождений" error={errors.maxUses?.message}>
          <Input type="number" inputMode="numeric" min={1} max={MAX_LINK_USES} {...form.register('maxUses')} />
        </Field>
        <Field label="Ограничение времени, мин" hint="Пусто — как в настройках теста" error={errors.timeLimitMinutes?.message}>
          <Input type="number" inputMode="numeric" min={1} max={MAX_LINK_TIME_LIMIT} {...form.register('timeLimitMinutes')} />
        </Field>
      </Grid>
      <Check label="Показывать кандидату результат" {...form.register('showResult')} />
      <Submit busy={create.isPending} busyLabel="Создание...">
        Создать ссылку
      </Submit>
    </Form>
  );
}

const Form = styled(CardForm)`
  margin: 16px 0 24px;
  h2 {
    margin: 0;
    font-size: 18px;
  }
`;
const Grid = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(220px, 1fr));
  gap: 12px;
`;
const Made = styled(Card)`
  display: grid;
  gap: 8px;
  margin-bottom: 24px;
  padding: 16px;
`;
const LinkRow = styled.div`
  display: flex;
  gap: 8px;
  input {
    flex: 1;
  }
`;
const TableWrap = styled.div`
  overflow-x: auto;
  table {
    width: 100%;
    border-collapse: collapse;
  }
  th,
  td {
    padding: 10px 12px;
    text-align: left;
    border-bottom: 1px solid ${({ theme }) => theme.colors.border};
    vertical-align: top;
  }
`;
