import type { ReactNode } from 'react';
import styled from 'styled-components';
import type { UseQueryResult } from '@tanstack/react-query';
import { EDITOR_MSG, type BlockRecord } from '@portal/contracts';
import { Button, LoadError, Loading, Muted } from '@portal/ui';
import { LessonEditor } from '../../components/lesson/LessonEditor';
import { Centered } from '../../components/layout';
import { REGENERATE_TITLES, type RegenerateTarget } from '../../model/proposal';
import { allLessons, findLesson, type EditorLesson } from '../../model/structure';
import { BlocksPanel } from './BlocksPanel';
import { Overview } from './Overview';
import type { Selection } from './state/useSelection';
import type { CourseEditorState } from './useCourseEditor';

interface LessonPaneProps {
  editor: CourseEditorState;
  selection: Selection;
  /** The open lesson's blocks, while they are read. */
  lessonLoad: Pick<UseQueryResult<BlockRecord>, 'isError' | 'error' | 'refetch'>;
  /** The course's authors and SCORM attempts, shown in the overview. */
  authors?: ReactNode;
  /** Absent where nothing can be regenerated (the demo routes). */
  regenerate: ((target: RegenerateTarget) => void) | null;
  onDeleteLesson: (lesson: EditorLesson) => void;
}

/** The editor's main area: the course overview, the open lesson (or its blocks), or what to do first. */
export function LessonPane({ editor, selection, lessonLoad, authors, regenerate, onDeleteLesson }: LessonPaneProps) {
  const { course } = editor;
  const { select } = selection;
  const selected = findLesson(course, selection.selectedId);

  if (selection.overview) {
    return (
      <Overview
        key={editor.conflict.courseRevision}
        course={course}
        onChange={editor.edits.changeCourse}
        authors={authors}
        copy={editor.conflict.courseCopy}
        onPublishDrafts={() => void editor.structure.publishDraftLessons()}
        busy={editor.writes.busy}
      />
    );
  }
  if (!selected) {
    return (
      <Center>
        <h1>{EDITOR_MSG.selectLesson}</h1>
        <Muted>Выберите урок слева или добавьте новый в модуль, чтобы начать редактирование.</Muted>
      </Center>
    );
  }
  if (!selected.loaded) {
    return (
      <Center>
        <h1>{selected.title}</h1>
        {lessonLoad.isError ? (
          <LoadError title={EDITOR_MSG.lessonLoadFailed} error={lessonLoad.error} onRetry={() => void lessonLoad.refetch()} />
        ) : (
          <Loading label={EDITOR_MSG.loadingLesson} />
        )}
      </Center>
    );
  }
  if (selection.blocksPanel) return <BlocksPanel lesson={selected} onClose={selection.closeBlocksPanel} />;

  const lessons = allLessons(course);
  const position = lessons.findIndex((l) => l.id === selected.id);
  return (
    <LessonEditor
      key={selected.id}
      lessonId={selected.id}
      focusTitle={selected.id === selection.namingId}
      courseId={course.id}
      value={selected}
      onChange={(patch) => editor.edits.changeLesson(selected.id, patch)}
      actions={
        <>
          <Button
            type="button"
            $variant="outline"
            $size="sm"
            disabled={position <= 0}
            onClick={() => select(lessons[position - 1].id)}
          >
            ← Предыдущий урок
          </Button>
          <Button
            type="button"
            $variant="outline"
            $size="sm"
            disabled={position >= lessons.length - 1}
            onClick={() => select(lessons[position + 1].id)}
          >
            Следующий урок →
          </Button>
          <Spacer />
          {regenerate && selected.generated && (
            <Button
              type="button"
              $variant="secondary"
              $size="sm"
              onClick={() => regenerate({ kind: 'lesson', id: selected.id, title: selected.title || 'Без названия' })}
            >
              {REGENERATE_TITLES.lesson}
            </Button>
          )}
          <Button
            type="button"
            $variant="secondary"
            $size="sm"
            disabled={editor.writes.busy}
            onClick={async () => {
              const copyId = await editor.structure.copyLesson(selected.id);
              if (copyId) select(copyId);
            }}
          >
            Копировать урок
          </Button>
          <Button type="button" $variant="destructive" $size="sm" onClick={() => onDeleteLesson(selected)}>
            Удалить урок
          </Button>
        </>
      }
    />
  );
}

const Center = styled(Centered)`
  h1 {
    margin: 0;
    font-size: 22px;
  }
  p {
    margin: 0;
  }
`;
const Spacer = styled.span`
  flex: 1;
`;
