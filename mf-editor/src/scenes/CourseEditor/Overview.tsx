import { useId, useState, type ReactNode } from 'react';
import styled from 'styled-components';
import { CONTENT_MSG, COURSE_LEVEL_SUGGESTIONS, COURSE_STATUS_LABELS, EDITOR_MSG, lessonsLabel } from '@portal/contracts';
import { Button, FieldError, Input, Label, Muted, Stack, TextArea } from '@portal/ui';
import { navigate, paths } from '@portal/web-core';
import type { CourseDraft } from '../../autosave/savers';
import { StatusField } from '../../components/StatusField';
import { countLessons, draftLessons, type EditorCourse } from '../../model/structure';

type CourseFields = Omit<CourseDraft, 'id'>;

interface OverviewProps {
  course: EditorCourse;
  onChange: (patch: Partial<CourseFields>) => void;
  /** The course's authors (the real editor only: the demo course has none). */
  authors?: ReactNode;
  /** The new course «Сохранить мою как копию» made of the author's fields after a conflict. */
  copy?: { id: string; title: string } | null;
  /** Publishes every draft lesson (offered while the course is published and has some). */
  onPublishDrafts?: () => void;
  busy?: boolean;
}

/** The course form: a blank or non-numeric entry counts as 0; below 0 is refused. */
const toNumber = (raw: string): number => {
  const n = Number(raw.trim().replace(',', '.'));
  return raw.trim() === '' || !Number.isFinite(n) ? 0 : n;
};

/**
 * The course overview, editing every field of the course form (title, description,
 * price, duration, level, status) with autosave, then the counts and the structure.
 */
export function Overview({ course, onChange, authors, copy, onPublishDrafts, busy }: OverviewProps) {
  const drafts = draftLessons(course).length;
  const ids = { price: useId(), duration: useId(), levels: useId() };
  // What is typed stays as typed («1,5», a blank) while the course holds the number it means.
  const [typed, setTyped] = useState({ price: String(course.price), duration: String(course.duration) });
  const [problems, setProblems] = useState<{ price?: string; duration?: string }>({});

  const number = (field: 'price' | 'duration', label: string, refusal: string) => {
    const problem = problems[field];
    return (
      <Stack $gap={6}>
        <Label>
          {label}
          <Input
            name={field}
            type="text"
            inputMode="decimal"
            value={typed[field]}
            aria-invalid={!!problem}
            aria-describedby={problem ? `${ids[field]}-error` : undefined}
            onChange={(e) => {
              const raw = e.target.value;
              setTyped((t) => ({ ...t, [field]: raw }));
              const value = toNumber(raw);
              if (value < 0) return setProblems((p) => ({ ...p, [field]: refusal }));
              setProblems((p) => ({ ...p, [field]: undefined }));
              onChange({ [field]: value });
            }}
          />
        </Label>
        {problem && (
          <FieldError id={`${ids[field]}-error`} role="alert">
            {problem}
          </FieldError>
        )}
      </Stack>
    );
  };

  return (
    <Box aria-label="Обзор курса">
      <h1>Обзор курса</h1>
      {copy && (
        <CopyNote role="status">
          <span>Ваша версия сохранена как новый курс «{copy.title}» (черновик).</span>
          <Button type="button" $variant="outline" $size="sm" onClick={() => navigate(paths.editor(copy.id))}>
            Открыть копию
          </Button>
        </CopyNote>
      )}
      <Label>
        Название курса
        <Input value={course.title} maxLength={200} onChange={(e) => onChange({ title: e.target.value })} />
      </Label>
      <Label>
        Описание курса
        <TextArea
          rows={4}
          maxLength={5000}
          value={course.description}
          onChange={(e) => onChange({ description: e.target.value })}
        />
      </Label>
      <Row>
        {number('price', 'Цена, ₽', CONTENT_MSG.priceMin)}
        {number('duration', 'Длительность, ч', CONTENT_MSG.durationMin)}
        <Label>
          Уровень
          <Input list={ids.levels} maxLength={100} value={course.level} onChange={(e) => onChange({ level: e.target.value })} />
          <datalist id={ids.levels}>
            {COURSE_LEVEL_SUGGESTIONS.map((level) => (
              <option key={level} value={level} />
            ))}
          </datalist>
        </Label>
      </Row>
      <StatusField label="Статус курса" value={course.status} onValue={(status) => onChange({ status })} />
      {course.status === 'published' && drafts > 0 && (
        <DraftNote role="status" aria-label="Черновики в опубликованном курсе">
          <span>Черновиков в курсе: {drafts}. Слушатели не видят уроки в статусе «Черновик», пока их не опубликуют.</span>
          {onPublishDrafts && (
            <Button type="button" $variant="outline" $size="sm" disabled={busy} onClick={onPublishDrafts}>
              Опубликовать черновики
            </Button>
          )}
        </DraftNote>
      )}
      <Facts>
        <div>
          <dt>Модулей</dt>
          <dd>{course.modules.length}</dd>
        </div>
        <div>
          <dt>Уроков</dt>
          <dd>{countLessons(course)}</dd>
        </div>
        <div>
          <dt>Статус</dt>
          <dd>{course.status ? COURSE_STATUS_LABELS[course.status] : EDITOR_MSG.notSpecified}</dd>
        </div>
      </Facts>
      {/* The real editor only (it has authors): the demo course has no bank. */}
      {authors !== undefined && (
        <div>
          <Button type="button" $variant="outline" $size="sm" onClick={() => navigate(paths.questionBank(course.id))}>
            Банк вопросов
          </Button>
        </div>
      )}
      <h2>Структура</h2>
      {course.modules.length === 0 ? (
        <Muted>Модулей пока нет</Muted>
      ) : (
        <Structure aria-label="Структура курса">
          {course.modules.map((m) => (
            <li key={m.id}>
              <span>{m.title}</span>
              <Muted as="span">{lessonsLabel(m.lessons.length)}</Muted>
            </li>
          ))}
        </Structure>
      )}
      {authors}
    </Box>
  );
}

const Box = styled.section`
  display: grid;
  grid-template-columns: minmax(0, 1fr);
  min-width: 0;
  overflow-wrap: anywhere;
  gap: 14px;
  max-width: 760px;
  h1 {
    margin: 0;
    font-size: 24px;
  }
  h2 {
    margin: 8px 0 0;
    font-size: 18px;
  }
`;
const CopyNote = styled.p`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 8px;
  margin: 0;
  color: ${({ theme }) => theme.colors.muted};
`;
const DraftNote = styled(CopyNote)`
  padding: 10px 12px;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius};
  color: ${({ theme }) => theme.colors.text};
`;
/** Price, duration and level side by side, each as tall as its own content (a message under one moves no other). */
const Row = styled.div`
  display: grid;
  gap: 14px;
  grid-template-columns: repeat(auto-fit, minmax(160px, 1fr));
  align-items: start;
  > * {
    min-width: 0;
  }
`;
const Facts = styled.dl`
  display: grid;
  grid-template-columns: repeat(3, minmax(0, 1fr));
  gap: 12px;
  margin: 0;
  div {
    padding: 12px;
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: ${({ theme }) => theme.radius};
    background: ${({ theme }) => theme.colors.surface};
  }
  dt {
    font-size: 13px;
    color: ${({ theme }) => theme.colors.muted};
  }
  dd {
    margin: 4px 0 0;
    font-size: 20px;
    font-weight: 700;
  }
`;
const Structure = styled.ol`
  margin: 0;
  padding-left: 20px;
  display: grid;
  gap: 6px;
  li {
    overflow-wrap: anywhere;
  }
  li span + span {
    margin-left: 8px;
  }
`;
