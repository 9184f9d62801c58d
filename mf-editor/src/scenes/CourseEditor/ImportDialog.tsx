import { useState } from 'react';
import styled from 'styled-components';
import { useQuery } from '@tanstack/react-query';
import type { BlockRecord } from '@portal/contracts';
import { CheckLabel, ErrorBox, FormActions, Label, Muted, Select, TitleOptions } from '@portal/ui';
import { errorMessage } from '@portal/web-core';
import { useBackend } from '../../backend/backend';
import { Dialog, DialogForm } from '../../components/Dialog';
import type { EditorCourse } from '../../model/structure';

/** Select items never have an empty value. */
const NONE = 'none';

interface ImportDialogProps {
  course: EditorCourse;
  onImported: (lessons: BlockRecord[]) => void;
  onClose: () => void;
}

/**
 * 'Импорт уроков': copies of lessons of another course of the portal, chosen one by one, go to the
 * end of a module of this course (with their own copies of any quizzes).
 */
export function ImportDialog({ course, onImported, onClose }: ImportDialogProps) {
  const backend = useBackend();
  const [sourceId, setSourceId] = useState<string | null>(null);
  const [moduleId, setModuleId] = useState(course.modules[0]?.id ?? '');
  const [chosen, setChosen] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const courses = useQuery({ queryKey: ['editor', backend.demo, 'import-courses'], queryFn: () => backend.listCourses() });
  const others = (courses.data ?? []).filter((c) => c.id !== course.id || backend.demo);
  const source = useQuery({
    queryKey: ['editor', backend.demo, 'import-source', sourceId],
    queryFn: () => backend.loadOutline(sourceId as string),
    enabled: !!sourceId,
  });

  const toggle = (id: string, on: boolean) => setChosen((list) => (on ? [...list, id] : list.filter((x) => x !== id)));

  const submit = async () => {
    if (!moduleId) return setProblem('Выберите модуль, в который добавить уроки');
    if (!chosen.length) return setProblem('Выберите уроки для импорта');
    setSaving(true);
    setProblem(null);
    try {
      const order = (source.data?.modules ?? []).flatMap((m) => m.lessons.map((l) => l.id)).filter((id) => chosen.includes(id));
      onImported(await backend.importLessons({ courseId: course.id, moduleId, lessonIds: order }));
    } catch (err) {
      setProblem(errorMessage(err));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog title="Импорт уроков" onClose={onClose} wide>
      <DialogForm onSubmit={() => void submit()}>
        {course.modules.length === 0 ? (
          <Muted>Сначала добавьте в курс модуль: уроки импортируются в модуль.</Muted>
        ) : (
          <Label>
            Модуль, куда добавить уроки
            <Select value={moduleId} onChange={(e) => setModuleId(e.target.value)}>
              <TitleOptions items={course.modules} />
            </Select>
          </Label>
        )}
        <Label>
          Курс, из которого импортировать
          <Select
            value={sourceId ?? NONE}
            onChange={(e) => {
              setSourceId(e.target.value);
              setChosen([]);
            }}
          >
            <option value={NONE} disabled>
              {courses.isPending ? 'Загрузка курсов...' : 'Выберите курс'}
            </option>
            <TitleOptions items={others} />
          </Select>
        </Label>
        {courses.isError && <ErrorBox>{errorMessage(courses.error)}</ErrorBox>}
        {source.isPending && sourceId && <Muted role="status">Загрузка уроков...</Muted>}
        {source.isError && <ErrorBox>{errorMessage(source.error)}</ErrorBox>}
        {source.data && (
          <Lessons aria-label="Уроки курса-источника">
            {source.data.modules.every((m) => m.lessons.length === 0) && <Muted>В этом курсе нет уроков</Muted>}
            {source.data.modules
              .filter((m) => m.lessons.length > 0)
              .map((m) => (
                <fieldset key={m.id}>
                  <legend>{m.title}</legend>
                  {m.lessons.map((l) => (
                    <CheckLabel key={l.id}>
                      <input type="checkbox" checked={chosen.includes(l.id)} onChange={(e) => toggle(l.id, e.target.checked)} />
                      {l.title}
                    </CheckLabel>
                  ))}
                </fieldset>
              ))}
          </Lessons>
        )}
        {problem && <ErrorBox>{problem}</ErrorBox>}
        <FormActions
          busy={saving}
          ready={chosen.length > 0 && !!moduleId}
          submitLabel={saving ? 'Импорт...' : `Импортировать${chosen.length ? ` (${chosen.length})` : ''}`}
          onCancel={onClose}
        />
      </DialogForm>
    </Dialog>
  );
}

const Lessons = styled.div`
  display: grid;
  gap: 10px;
  max-height: 45vh;
  overflow: auto;
  fieldset {
    margin: 0;
    padding: 10px 12px;
    display: grid;
    gap: 6px;
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: ${({ theme }) => theme.radius};
  }
  legend {
    font-weight: 600;
    padding: 0 4px;
  }
`;
