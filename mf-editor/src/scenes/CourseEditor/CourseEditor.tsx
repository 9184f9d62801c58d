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
import { Button, ErrorBox, Muted } from '@portal/ui';
import { ApiError, errorMessage, navigate, paths, useAuth } from '@portal/web-core';
import { readAgain } from '@portal/web-core/query';
import { useBackend } from '../../backend/backend';
import { CoAuthors } from '../../components/CoAuthors';
import { ScormAttempts } from '../../components/scorm/ScormAttempts';
import { ConfirmDialog, ConflictDialog } from '../../components/Dialog';
import { RegenerateContext } from '../../components/generation/RegenerateContext';
import { RegenerateDialog } from '../../components/generation/RegenerateDialog';
import { LessonEditor } from '../../components/lesson/LessonEditor';
import { Centered } from '../../components/layout';
import { SaveIndicator } from '../../components/SaveIndicator';
import { REGENERATE_TITLES, selectionAfterAccept, type RegenerateTarget } from '../../model/proposal';
import {
  allLessons,
  findLesson,
  fromOutline,
  type EditorCourse,
  type EditorLesson,
  type EditorModule,
} from '../../model/structure';
import { BlocksPanel } from './BlocksPanel';
import { ImportDialog } from './ImportDialog';
import { ScormImportDialog } from './ScormImportDialog';
import { Overview } from './Overview';
import { Sidebar } from './Sidebar';
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
    retry: (failures, err) => failures < 1 && !(err instanceof ApiError && err.status >= 400 && err.status < 500),
  });

  if (query.isPending) {
    return (
      <Center>
        <Muted role="status">{EDITOR_MSG.loadingCourse}</Muted>
      </Center>
    );
  }
  if (query.isError) {
    const notFound = query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400);
    return (
      <Center>
        {notFound ? (
          <h1>{EDITOR_MSG.courseNotFound}</h1>
        ) : (
          <ErrorBox>
            {EDITOR_MSG.courseLoadFailed}: {errorMessage(query.error)}
          </ErrorBox>
        )}
        <Row>
          {!notFound && (
            <Button type="button" onClick={() => void query.refetch()}>
              Повторить загрузку
            </Button>
          )}
          <Button type="button" $variant="outline" onClick={onBack}>
            ← К курсам
          </Button>
        </Row>
      </Center>
    );
  }
  // Not the person's course: no editor is offered at all (the server refuses every write anyway).
  if (!backend.demo && user && !canEditCourse(user, query.data)) {
    return (
      <Center>
        <h1>{query.data.title}</h1>
        <Muted role="status" data-testid="editor-read-only">
          {query.data.archived ? CONTENT_MSG.courseArchived : CONTENT_MSG.notCourseAuthor}
        </Muted>
        <Row>
          <Button type="button" $variant="outline" onClick={onBack}>
            ← К курсам
          </Button>
        </Row>
      </Center>
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
  const { course } = editor;
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [blocksPanel, setBlocksPanel] = useState(false);
  const [overview, setOverview] = useState(false);
  // The lesson just added: its editor opens with the name field focused, to be named at once.
  const [namingId, setNamingId] = useState<string | null>(null);
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
  const lessonLoad = useLessonLoader(backend, selected, ahead, editor.lessonLoaded);
  // Course versions (decision 093) matter while learners see the course: a published one (the demo
  // course has no learners). A draft's editor asks nothing more than its outline.
  const withVersions = !backend.demo && course.status === 'published';
  const draft = useDraftState(course.id, withVersions);
  useDraftRefresh(course.id, editor.saves);

  const select = (id: string | null) => {
    setSelectedId(id);
    setNamingId(null);
    setBlocksPanel(false);
    setOverview(false);
  };
  // Clicking the selected lesson again toggles its block panel.
  const onSelectLesson = (id: string) => {
    if (id === selectedId && !overview) setBlocksPanel((open) => !open);
    else select(id);
  };

  const onConfirm = async () => {
    if (!confirm) return;
    setConfirm(null);
    if (confirm.kind === 'lesson') {
      const done = await editor.deleteLesson(confirm.lesson.id);
      if (done && selectedId === confirm.lesson.id) select(null);
    } else {
      const hadSelection = confirm.mod.lessons.some((l) => l.id === selectedId);
      const done = await editor.deleteModule(confirm.mod.id);
      if (done && hadSelection) select(null);
    }
  };

  const main = () => {
    if (overview) {
      return (
        <Overview
          key={editor.courseRevision}
          course={course}
          onChange={editor.changeCourse}
          authors={authors}
          copy={editor.courseCopy}
          onPublishDrafts={() => void editor.publishDraftLessons()}
          busy={editor.busy}
        />
      );
    }
    if (selected && !selected.loaded) {
      return (
        <Center>
          <h1>{selected.title}</h1>
          {lessonLoad.isError ? (
            <>
              <ErrorBox>
                {EDITOR_MSG.lessonLoadFailed}: {errorMessage(lessonLoad.error)}
              </ErrorBox>
              <Button type="button" onClick={() => void lessonLoad.refetch()}>
                Повторить загрузку
              </Button>
            </>
          ) : (
            <Muted role="status">{EDITOR_MSG.loadingLesson}</Muted>
          )}
        </Center>
      );
    }
    if (selected && blocksPanel) return <BlocksPanel lesson={selected} onClose={() => setBlocksPanel(false)} />;
    if (selected) {
      return (
        <LessonEditor
          key={selected.id}
          lessonId={selected.id}
          focusTitle={selected.id === namingId}
          courseId={course.id}
          value={selected}
          onChange={(patch) => editor.changeLesson(selected.id, patch)}
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
                disabled={editor.busy}
                onClick={async () => {
                  const copyId = await editor.copyLesson(selected.id);
                  if (copyId) select(copyId);
                }}
              >
                Копировать урок
              </Button>
              <Button
                type="button"
                $variant="destructive"
                $size="sm"
                onClick={() => setConfirm({ kind: 'lesson', lesson: selected })}
              >
                Удалить урок
              </Button>
            </>
          }
        />
      );
    }
    return (
      <Center>
        <h1>{EDITOR_MSG.selectLesson}</h1>
        <Muted>Выберите урок слева или добавьте новый в модуль, чтобы начать редактирование.</Muted>
      </Center>
    );
  };

  /** Study mode as learners see it, after what is typed here has been saved (it reads the server's copy). */
  const previewAsLearner = async () => {
    await editor.saveBeforeRegenerate();
    const lesson = selected ? `?lesson=${encodeURIComponent(selected.id)}` : '';
    navigate(`${paths.student(course.id)}${lesson}`);
  };

  const onAccepted = (target: RegenerateTarget, server: Course) => {
    const next = editor.applyAccepted(target, server);
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
          overviewOpen={overview}
          busy={editor.busy}
          onBack={onBack}
          onPreviewAsLearner={backend.demo ? undefined : () => void previewAsLearner()}
          onToggleOverview={() => setOverview((open) => !open)}
          onSelectLesson={onSelectLesson}
          onAddModule={editor.addModule}
          onAddLesson={async (moduleId) => {
            const id = await editor.addLesson(moduleId);
            if (id) {
              select(id);
              setNamingId(id);
            }
          }}
          onNewLessonPage={backend.demo ? undefined : (moduleId) => navigate(paths.newLesson(moduleId))}
          onRenameModule={editor.renameModule}
          onRegenerateModule={regenerate ? (mod) => regenerate({ kind: 'module', id: mod.id, title: mod.title }) : undefined}
          onDeleteModule={(mod) => setConfirm({ kind: 'module', mod })}
          onImport={() => setImporting(true)}
          onScormImport={backend.scorm ? () => setImportingScorm(true) : undefined}
          onPreviewLessonMove={editor.previewLessonMove}
          onPersistLessonMove={editor.persistLessonMove}
          onPreviewModuleMove={editor.previewModuleMove}
          onPersistModuleMove={editor.persistModuleMove}
          changeMarks={changeMarksOf(draft.data?.diff)}
          saveIndicator={<SaveIndicator status={editor.status} dirty={editor.dirty} onRetry={editor.saveAllNow} />}
          notice={
            editor.notice && (
              <Notice role="alert">
                <span>{editor.notice}</span>
                <Button type="button" $variant="ghost" $size="sm" onClick={editor.dismissNotice} aria-label="Скрыть сообщение">
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
              prepare={async () => (await editor.saveBeforeRegenerate()) === null}
              onDraftReplaced={() => {
                // Every record's version moved: the editor's copy and the lessons read so far are stale.
                queryClient.removeQueries({ queryKey: lessonsKey(backend.demo) });
                onReload();
              }}
            />
          )}
          {banner}
          {main()}
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
        {editor.conflictTitle !== null && (
          <ConflictDialog
            title={editor.conflictTitle}
            busy={editor.busy}
            onChoose={(choice) => void editor.resolveConflict(choice)}
          />
        )}
        {importingScorm && (
          <ScormImportDialog
            courseId={course.id}
            onClose={() => setImportingScorm(false)}
            onImported={() => {
              setImportingScorm(false);
              // Whatever waits is saved first: the editor is then built from the server's course.
              void editor.saveBeforeRegenerate().finally(onReload);
            }}
          />
        )}
        {importing && (
          <ImportDialog
            course={course}
            onClose={() => setImporting(false)}
            onImported={(records) => {
              editor.addImported(records);
              setImporting(false);
            }}
          />
        )}
        {generations && regenerating && (
          <RegenerateDialog
            key={`${regenerating.kind}:${regenerating.id}`}
            api={generations}
            target={regenerating}
            prepare={editor.saveBeforeRegenerate}
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
const Center = styled(Centered)`
  h1 {
    margin: 0;
    font-size: 22px;
  }
  p {
    margin: 0;
  }
`;
const Row = styled.div`
  display: flex;
  gap: 8px;
  flex-wrap: wrap;
`;
const Spacer = styled.span`
  flex: 1;
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
