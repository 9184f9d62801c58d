import { useState } from 'react';
import styled from 'styled-components';
import { useQuery } from '@tanstack/react-query';
import { EDITOR_MSG } from '@portal/contracts';
import { Button, ErrorBox, Loading, Muted, useToast } from '@portal/ui';
import { errorMessage, navigate, paths } from '@portal/web-core';
import { useBackend } from '../../backend/backend';
import { Centered, Page } from '../../components/layout';
import { LessonEditor, type LessonFields } from '../../components/lesson/LessonEditor';

const EMPTY: LessonFields = { title: '', description: '', status: 'draft', blocks: [] };

/**
 * /lesson/new/{moduleId}: a lesson written before it exists. Saving needs a title and, unlike the
 * original, creates the lesson on the server; then 'Урок успешно создан!' and back to the course.
 */
export function NewLesson({ moduleId }: { moduleId: string | null }) {
  if (!moduleId) return <NoModule message={EDITOR_MSG.noModuleId} />;
  return <NewLessonForModule moduleId={moduleId} />;
}

/** In place of the editor when there is no module to write the lesson in: why, and the way back. */
function NoModule({ message }: { message: string }) {
  return (
    <Centered>
      <ErrorBox>{message}</ErrorBox>
      <Button type="button" $variant="outline" onClick={() => window.history.back()}>
        Назад
      </Button>
    </Centered>
  );
}

function NewLessonForModule({ moduleId }: { moduleId: string }) {
  const toast = useToast();
  const backend = useBackend();
  const mod = useQuery({
    queryKey: ['editor', backend.demo, 'module', moduleId],
    queryFn: () => backend.getBlock(moduleId),
    retry: false,
  });
  const [lesson, setLesson] = useState<LessonFields>(EMPTY);
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  if (mod.isPending) {
    return (
      <Centered>
        <Loading label="Загрузка модуля..." />
      </Centered>
    );
  }
  if (mod.isError || mod.data.type !== 'MODULE') {
    return <NoModule message={mod.isError ? errorMessage(mod.error) : 'Модуль не найден'} />;
  }
  const { courseId, title: moduleTitle } = mod.data;
  const back = () => navigate(paths.editor(courseId), { replace: true });

  const save = async () => {
    const title = lesson.title.trim();
    if (!title) {
      toast.show(EDITOR_MSG.lessonTitleRequired, 'error');
      return;
    }
    setSaving(true);
    setProblem(null);
    try {
      await backend.createLesson({
        courseId,
        moduleId,
        title,
        description: lesson.description,
        status: lesson.status,
        content: lesson.blocks,
      });
      toast.show(EDITOR_MSG.lessonCreated, 'success');
      back();
    } catch (err) {
      setProblem(errorMessage(err));
      toast.show(EDITOR_MSG.lessonSaveFailed, 'error');
    } finally {
      setSaving(false);
    }
  };

  return (
    <Page data-mf="mf_editor">
      <LessonEditor
        lessonId="new"
        courseId={courseId}
        value={lesson}
        onChange={(patch) => setLesson((l) => ({ ...l, ...patch }))}
        heading={
          <Head>
            <h1>Новый урок</h1>
            <Muted as="span">Модуль «{moduleTitle}»</Muted>
          </Head>
        }
        actions={
          <>
            <Button type="button" disabled={saving} onClick={() => void save()}>
              {saving ? 'Сохранение...' : 'Сохранить урок'}
            </Button>
            <Button type="button" $variant="outline" onClick={back}>
              Отмена
            </Button>
          </>
        }
      />
      {problem && <ErrorBox>{problem}</ErrorBox>}
    </Page>
  );
}

const Head = styled.div`
  display: flex;
  align-items: baseline;
  gap: 12px;
  flex-wrap: wrap;
  h1 {
    margin: 0;
    font-size: 22px;
  }
`;
