import { useState, type ReactNode } from 'react';
import styled from 'styled-components';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CONTENT_MSG,
  EDITOR_MSG,
  canEditCourse,
  canManageCoAuthors,
  confirmDeleteLessonText,
  type Course,
} from '@portal/contracts';
import { Button, ErrorState, Loading, NotFoundState } from '@portal/ui';
import { isMissing, navigate, paths, retriedUnlessRefused, useAuth } from '@portal/web-core';
import { readAgain } from '@portal/web-core/query';
import { useBackend } from '../../backend/backend';
import { CoAuthors } from '../../components/CoAuthors';
import { ScormAttempts } from '../../components/scorm/ScormAttempts';
import { ConfirmDialog, ConflictDialog } from '../../components/Dialog';
import { RegenerateContext } from '../../components/generation/RegenerateContext';
import { RegenerateDialog } from '../../components/generation/RegenerateDialog';
import { Centered } from '../../components/layout';
import { SaveIndicator } from '../../components/SaveIndicator';
import { selectionAfterAccept, type RegenerateTarget } from '../../model/proposal';
import {
  allLessons,
  findLesson,
  fromOutline,
  type EditorCourse,
  type EditorLesson,
  type EditorModule,
} from '../../model/structure';
import { ImportDialog } from './ImportDialog';
import { ScormImportDialog } from './ScormImportDialog';
import { LessonPane } from './LessonPane';
import { Sidebar } from './Sidebar';
import { useSelection } from './state/useSelection';
import { useCourseEditor } from './useCourseEditor';
import { lessonsKey, useLessonLoader } from './useLessonLoader';
import { VersionsBar } from './versions/VersionsBar';
import { changeMarksOf, useDraftRefresh, useDraftState } from './versions/useVersions';

interface CourseEditorProps {
  courseId: string;
  onBack?: () => void;
  banner?: ReactNode;
}

/** /editor/{courseId}: loading, not found, load failure, or the editor. */
export function CourseEditor({ courseId, onBack = () => navigate(paths.courses()), banner }: CourseEditorProps) {
  const backend = useBackend();
  const { user } = useAuth();
  // Each reading of the course the editor is built anew from (after a package built modules and lessons).
  const [reading, setReading] = useState(0);
  // The editor owns its copy once loaded: no refetch may overwrite what is being edited. The
  // outline has no lesson content: each lesson's blocks are read when it is opened.
  const query = useQuery({
    queryKey: ['editor-course', backend.demo, courseId],
    queryFn: () => backend.loadOutline(courseId),
    staleTime: Infinity,
    gcTime: 0,
    refetchOnMount: 'always',
    // A course that is not there will not appear on a second try.
    retry: retriedUnlessRefused,
  });

  const back = (
    <Button type="button" $variant="outline" onClick={onBack}>
      ← К курсам
    </Button>
  );
  if (query.isPending) {
    return (
      <Centered>
        <Loading label={EDITOR_MSG.loadingCourse} />
      </Centered>
    );
  }
  if (query.isError) {
    return isMissing(query.error) ? (
      <NotFoundState title={EDITOR_MSG.courseNotFound} action={back} />
    ) : (
      <ErrorState title={EDITOR_MSG.courseLoadFailed} error={query.error} onRetry={() => void query.refetch()} action={back} />
    );
  }
  // Not the person's course: no editor is offered at all (the server refuses every write anyway).
  if (!backend.demo && user && !canEditCourse(user, query.data)) {
    return (
      <NotFoundState
        title={query.data.title}
        hint={
          <span role="status" data-testid="editor-read-only">
            {query.data.archived ? CONTENT_MSG.courseArchived : CONTENT_MSG.notCourseAuthor}
          </span>
        }
        action={back}
      />
    );
  }
  const authors =
    backend.demo || !user ? undefined : (
      <>
        <CoAuthors courseId={query.data.id} canManage={canManageCoAuthors(user, query.data)} />
        <ScormAttempts courseId={query.data.id} lessons={query.data.modules.flatMap((m) => m.lessons)} />
      </>
    );
  const readAgainFromServer = async () => {
    await query.refetch();
    setReading((n) => n + 1);
  };
  return (
    <LoadedEditor
      key={reading}
      initial={fromOutline(query.data)}
      onBack={onBack}
      banner={banner}
      authors={authors}
      onReload={() => void readAgainFromServer()}
    />
  );
}

function LoadedEditor({
  initial,
  onBack,
  banner,
  authors,
  onReload,
}: {
  initial: EditorCourse;
  onBack: () => void;
  banner?: ReactNode;
  authors?: ReactNode;
  /** Reads the course from the server again and builds the editor anew. */
  onReload: () => void;
}) {
  const backend = useBackend();
  const editor = useCourseEditor(initial, backend);
  const { course, structure } = editor;
  const selection = useSelection();
  const { selectedId, select } = selection;
  const [importing, setImporting] = useState(false);
  const [importingScorm, setImportingScorm] = useState(false);
  const [regenerating, setRegenerating] = useState<RegenerateTarget | null>(null);
  const queryClient = useQueryClient();
  // Only the real editor regenerates: the demo backend has no generator.
  const generations = backend.generations;
  const regenerate = generations ? setRegenerating : null;
  const [confirm, setConfirm] = useState<{ kind: 'lesson'; lesson: EditorLesson } | { kind: 'module'; mod: EditorModule } | null>(
    null,
  );

  const lessons = allLessons(course);
  const selected = findLesson(course, selectedId);
  const position = selected ? lessons.findIndex((l) => l.id === selected.id) : -1;
  // Read ahead: the lesson after the open one, or the first one while none is open.
  const ahead = (selected ? lessons[position + 1] : lessons[0]) ?? null;
  const lessonLoad = useLessonLoader(backend, selected, ahead, editor.edits.lessonLoaded);
  // Course versions (decision 093) matter while learners see the course: a published one (the demo
  // course has no learners). A draft's editor asks nothing more than its outline.
  const withVersions = !backend.demo && course.status === 'published';
  const draft = useDraftState(course.id, withVersions);
  useDraftRefresh(course.id, editor.saving.saves);

  const onConfirm = async () => {
    if (!confirm) return;
    setConfirm(null);
    if (confirm.kind === 'lesson') {
      const done = await structure.deleteLesson(confirm.lesson.id);
      if (done && selectedId === confirm.lesson.id) select(null);
    } else {
      const hadSelection = confirm.mod.lessons.some((l) => l.id === selectedId);
      const done = await structure.deleteModule(confirm.mod.id);
      if (done && hadSelection) select(null);
    }
  };

  /** Study mode as learners see it, after what is typed here has been saved (it reads the server's copy). */
  const previewAsLearner = async () => {
    await editor.saving.saveEverything();
    const lesson = selected ? `?lesson=${encodeURIComponent(selected.id)}` : '';
    navigate(`${paths.student(course.id)}${lesson}`);
  };

  const onAccepted = (target: RegenerateTarget, server: Course) => {
    const next = structure.applyAccepted(target, server);
    const keep = selectionAfterAccept(selectedId, next, target);
    if (keep !== selectedId) select(keep);
    // Quizzes shown in block properties and pickers are read again (a regenerated quiz keeps its id),
    // and lessons read ahead are read again when opened (an accepted quiz changes their blocks).
    void readAgain(queryClient, ['editor', backend.demo]);
    queryClient.removeQueries({ queryKey: lessonsKey(backend.demo) });
    setRegenerating(null);
  };

  return (
    <RegenerateContext.Provider value={regenerate}>
      <Layout data-mf="mf_editor">
        <Sidebar
          course={course}
          selectedLessonId={selectedId}
          overviewOpen={selection.overview}
          busy={editor.writes.busy}
          onBack={onBack}
          onPreviewAsLearner={backend.demo ? undefined : () => void previewAsLearner()}
          onToggleOverview={selection.toggleOverview}
          onSelectLesson={selection.clickLesson}
          onAddModule={structure.addModule}
          onAddLesson={async (moduleId) => {
            const id = await structure.addLesson(moduleId);
            if (id) selection.selectToName(id);
          }}
          onNewLessonPage={backend.demo ? undefined : (moduleId) => navigate(paths.newLesson(moduleId))}
          onRenameModule={structure.renameModule}
          onRegenerateModule={regenerate ? (mod) => regenerate({ kind: 'module', id: mod.id, title: mod.title }) : undefined}
          onDeleteModule={(mod) => setConfirm({ kind: 'module', mod })}
          onImport={() => setImporting(true)}
          onScormImport={backend.scorm ? () => setImportingScorm(true) : undefined}
          {...editor.moves}
          changeMarks={changeMarksOf(draft.data?.diff)}
          saveIndicator={
            <SaveIndicator status={editor.saving.status} dirty={editor.saving.dirty} onRetry={editor.saving.saveAllNow} />
          }
          notice={
            editor.writes.notice && (
              <Notice role="alert">
                <span>{editor.writes.notice}</span>
                <Button
                  type="button"
                  $variant="ghost"
                  $size="sm"
                  onClick={editor.writes.dismissNotice}
                  aria-label="Скрыть сообщение"
                >
                  ✕
                </Button>
              </Notice>
            )
          }
        />
        <Main>
          {withVersions && (
            <VersionsBar
              courseId={course.id}
              published={course.status === 'published'}
              prepare={async () => (await editor.saving.saveEverything()) === null}
              onDraftReplaced={() => {
                // Every record's version moved: the editor's copy and the lessons read so far are stale.
                queryClient.removeQueries({ queryKey: lessonsKey(backend.demo) });
                onReload();
              }}
            />
          )}
          {banner}
          <LessonPane
            editor={editor}
            selection={selection}
            lessonLoad={lessonLoad}
            authors={authors}
            regenerate={regenerate}
            onDeleteLesson={(lesson) => setConfirm({ kind: 'lesson', lesson })}
          />
        </Main>
        {confirm && (
          <ConfirmDialog
            title={confirm.kind === 'lesson' ? 'Удаление урока' : 'Удаление модуля'}
            message={
              confirm.kind === 'lesson'
                ? confirmDeleteLessonText(confirm.lesson.title)
                : `Вы уверены, что хотите удалить модуль "${confirm.mod.title}"? Уроки модуля будут удалены вместе с ним.`
            }
            confirmLabel="Удалить"
            onCancel={() => setConfirm(null)}
            onConfirm={() => void onConfirm()}
          />
        )}
        {editor.conflict.title !== null && (
          <ConflictDialog
            title={editor.conflict.title}
            busy={editor.writes.busy}
            onChoose={(choice) => void editor.conflict.resolve(choice)}
          />
        )}
        {importingScorm && (
          <ScormImportDialog
            courseId={course.id}
            onClose={() => setImportingScorm(false)}
            onImported={() => {
              setImportingScorm(false);
              // Whatever waits is saved first: the editor is then built from the server's course.
              void editor.saving.saveEverything().finally(onReload);
            }}
          />
        )}
        {importing && (
          <ImportDialog
            course={course}
            onClose={() => setImporting(false)}
            onImported={(records) => {
              structure.addImported(records);
              setImporting(false);
            }}
          />
        )}
        {generations && regenerating && (
          <RegenerateDialog
            key={`${regenerating.kind}:${regenerating.id}`}
            api={generations}
            target={regenerating}
            prepare={editor.saving.saveEverything}
            onAccepted={onAccepted}
            onClose={() => setRegenerating(null)}
          />
        )}
      </Layout>
    </RegenerateContext.Provider>
  );
}

const Layout = styled.div`
  display: grid;
  grid-template-columns: 320px minmax(0, 1fr);
  min-height: calc(100vh - 60px);
  @media (max-width: 860px) {
    grid-template-columns: 1fr;
  }
`;
const Main = styled.main`
  padding: 24px;
  min-width: 0;
  display: grid;
  grid-template-columns: minmax(0, 1fr);
  gap: 16px;
  align-content: start;
`;
const Notice = styled.div`
  display: flex;
  align-items: flex-start;
  gap: 8px;
  padding: 8px 10px;
  font-size: 13px;
  border-radius: ${({ theme }) => theme.radius};
  color: ${({ theme }) => theme.colors.danger};
  background: ${({ theme }) => theme.colors.dangerBg};
  border: 1px solid ${({ theme }) => theme.colors.danger};
  span {
    flex: 1;
    overflow-wrap: anywhere;
  }
`;
