import { useMemo, useState } from 'react';
import styled from 'styled-components';
import { Muted } from '@portal/ui';
import { navigate, paths } from '@portal/web-core';
import { useAutosave } from '../../autosave/useAutosaver';
import { lessonAutosave } from '../../autosave/savers';
import { BackendContext, type EditorBackend } from '../../backend/backend';
import { memoryBackend } from '../../backend/memoryBackend';
import { SAMPLE_COURSE } from '../../backend/sampleData';
import { LessonEditor, type LessonFields } from '../../components/lesson/LessonEditor';
import { Page } from '../../components/layout';
import { SaveIndicator } from '../../components/SaveIndicator';
import { lessonFromCourse } from '../../model/structure';
import { CourseEditor } from '../CourseEditor/CourseEditor';

export type DemoKind = 'course-editor' | 'lesson-editor' | 'block-editor' | 'index';

const LINKS: Array<[string, string]> = [
  [paths.demoCourseEditor(), 'Редактор курса'],
  [paths.demoLessonEditor(), 'Редактор урока'],
  [paths.demoBlockEditor(), 'Редактор блоков'],
];

/**
 * The demo routes: the editors on bundled sample data. Everything is kept in this
 * page's memory: nothing is written to the server (uploads become local object URLs).
 */
export function Demo({ kind }: { kind: DemoKind }) {
  const backend = useMemo(() => memoryBackend(), []);
  return (
    <BackendContext.Provider value={backend}>
      {kind === 'course-editor' ? (
        <CourseEditor courseId={SAMPLE_COURSE.id} onBack={() => navigate(paths.demo())} banner={<Banner />} />
      ) : kind === 'index' ? (
        <Wrap data-mf="mf_editor">
          <h1>Демонстрация редакторов</h1>
          <Banner />
          <Links>
            {LINKS.map(([href, label]) => (
              <li key={href}>
                <a
                  href={href}
                  onClick={(e) => {
                    e.preventDefault();
                    navigate(href);
                  }}
                >
                  {label}
                </a>
              </li>
            ))}
          </Links>
        </Wrap>
      ) : (
        <DemoLesson backend={backend} blocksOnly={kind === 'block-editor'} />
      )}
    </BackendContext.Provider>
  );
}

function Banner() {
  return (
    <Note role="note">Демонстрация на примерах: изменения хранятся только на этой странице и не сохраняются на сервере.</Note>
  );
}

/** A sample lesson in the lesson editor (or only its blocks), autosaved into the page's memory. */
function DemoLesson({ backend, blocksOnly }: { backend: EditorBackend; blocksOnly: boolean }) {
  const sample = SAMPLE_COURSE.modules[0].lessons[1];
  const [lesson, setLesson] = useState<LessonFields>(() => lessonFromCourse(sample));
  const draft = useMemo(() => ({ id: sample.id, ...lesson }), [sample.id, lesson]);
  const { saver, status } = useAutosave(
    draft,
    lessonAutosave((doc) => backend.updateBlock(doc.id, { title: doc.title, status: doc.status, content: doc.blocks })),
  );
  return (
    <Wrap data-mf="mf_editor">
      <h1>{blocksOnly ? 'Редактор блоков' : 'Редактор урока'}</h1>
      <Banner />
      <LessonEditor
        lessonId={sample.id}
        courseId={SAMPLE_COURSE.id}
        value={lesson}
        showLessonFields={!blocksOnly}
        onChange={(patch) => setLesson((l) => ({ ...l, ...patch }))}
        actions={<SaveIndicator status={status} dirty={saver.isDirty()} onRetry={() => saver.saveNow()} />}
      />
    </Wrap>
  );
}

const Wrap = styled(Page)`
  h1 {
    margin: 0;
    font-size: 24px;
  }
`;
const Note = styled(Muted)`
  margin: 0;
  padding: 10px 14px;
  border-radius: ${({ theme }) => theme.radius};
  border: 1px dashed ${({ theme }) => theme.colors.border};
  background: ${({ theme }) => theme.colors.surfaceAlt};
`;
const Links = styled.ul`
  margin: 0;
  padding-left: 20px;
  display: grid;
  gap: 8px;
  font-size: 18px;
`;
