import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import styled from 'styled-components';
import { REVIEW_MSG, type ReviewItem, ruCount } from '@portal/contracts';
import { Button, Card, ErrorBox, Input, Muted, Page, Pager } from '@portal/ui';
import { downloadPortalFile, errorMessage } from '@portal/web-core';
import { readAgain } from '@portal/web-core/query';
import { RESULTS_KEY, REVIEWS_KEY, fetchReviews, gradeReview } from '../../api/player';

const when = new Intl.DateTimeFormat('ru-RU', { dateStyle: 'short', timeStyle: 'short' });
const LIMIT = 20;

/**
 * «Проверка ответов» (ADMIN, CURATOR): long answers and files that wait for a person, the oldest
 * attempts first. Each gets a score (up to the question's points) and a comment the learner sees;
 * the attempt is final once nothing of it waits.
 */
export function Reviews() {
  const [page, setPage] = useState(1);
  const reviews = useQuery({
    queryKey: [...REVIEWS_KEY, page],
    queryFn: ({ signal }) => fetchReviews(page, LIMIT, signal),
    placeholderData: keepPreviousData,
  });
  const data = reviews.data;
  const waiting = data?.data.length ?? 0;
  return (
    <Page data-mf="mf_player">
      <h1>{REVIEW_MSG.title}</h1>
      {reviews.isError && <ErrorBox>{errorMessage(reviews.error)}</ErrorBox>}
      {data && (
        <Muted as="p" role="status">
          {waiting
            ? `На этой странице ${ruCount(waiting, { one: 'ответ', few: 'ответа', many: 'ответов' })} на проверке`
            : 'Ответов на проверке нет'}
        </Muted>
      )}
      <List>
        {data?.data.map((item) => (
          <ReviewCard key={`${item.attemptId}:${item.questionId}`} item={item} />
        ))}
      </List>
      {/* A page counts attempts and lists each one's waiting answers: the pager reads the attempts. */}
      {data && <Pager of={{ ...data, data: [...new Set(data.data.map((item) => item.attemptId))] }} onPage={setPage} />}
    </Page>
  );
}

function ReviewCard({ item }: { item: ReviewItem }) {
  const queryClient = useQueryClient();
  const [score, setScore] = useState('');
  const [comment, setComment] = useState('');
  const grade = useMutation({
    mutationFn: () => gradeReview(item.attemptId, item.questionId, { score: Number(score.replace(',', '.')), comment }),
    onSuccess: () => {
      void readAgain(queryClient, REVIEWS_KEY);
      void readAgain(queryClient, RESULTS_KEY);
    },
  });
  const label = `${item.userName}: ${item.question}`;
  return (
    <Card as="li" aria-label={label}>
      <Muted as="p">
        {item.userName} · {item.courseTitle} · {item.quizTitle}
        {item.completedAt ? ` · ${when.format(new Date(item.completedAt))}` : ''}
      </Muted>
      <h2>{item.question}</h2>
      {item.fileUrl ? (
        <a
          href={item.fileUrl}
          download
          onClick={(e) => {
            // An answer file is never public: it is read with the reviewer's token.
            e.preventDefault();
            if (item.fileUrl) void downloadPortalFile(item.fileUrl, item.answerText ?? 'ответ');
          }}
        >
          Скачать файл: {item.answerText}
        </a>
      ) : (
        <Answer>{item.answerText}</Answer>
      )}
      <Form
        onSubmit={(e) => {
          e.preventDefault();
          grade.mutate();
        }}
      >
        <label>
          Баллы (из {item.points})
          <Input
            inputMode="decimal"
            required
            value={score}
            onChange={(e) => setScore(e.target.value)}
            aria-describedby={`${item.attemptId}-${item.questionId}-max`}
          />
        </label>
        <label>
          Комментарий для ученика
          <textarea rows={2} value={comment} maxLength={2000} onChange={(e) => setComment(e.target.value)} />
        </label>
        <Button type="submit" disabled={grade.isPending || score.trim() === ''}>
          Оценить
        </Button>
      </Form>
      <span id={`${item.attemptId}-${item.questionId}-max`} hidden>
        Не больше {item.points}
      </span>
      {grade.isError && <ErrorBox>{errorMessage(grade.error)}</ErrorBox>}
    </Card>
  );
}

const List = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: 12px;
  li {
    display: grid;
    gap: 8px;
  }
  h2 {
    margin: 0;
    font-size: 17px;
  }
  p {
    margin: 0;
  }
`;
const Answer = styled.blockquote`
  margin: 0;
  padding: 10px 12px;
  white-space: pre-wrap;
  border-left: 3px solid ${({ theme }) => theme.colors.primary};
  background: ${({ theme }) => theme.colors.surfaceAlt};
`;
const Form = styled.form`
  display: grid;
  grid-template-columns: 140px minmax(0, 1fr) auto;
  align-items: end;
  gap: 10px;
  label {
    display: grid;
    gap: 4px;
  }
  textarea {
    font: inherit;
    padding: 8px 10px;
    color: ${({ theme }) => theme.colors.text};
    background: ${({ theme }) => theme.colors.surface};
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: ${({ theme }) => theme.radius};
  }
  @media (max-width: 640px) {
    grid-template-columns: 1fr;
  }
`;
