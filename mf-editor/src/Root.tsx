import { lazy, Suspense, type ReactNode } from 'react';
import { PageLoading } from '@portal/ui';
import { useScene, type Scenes } from '@portal/web-core';
import { apiBackend } from './api/content';
import { BackendContext } from './backend/backend';

const CourseEditor = lazy(() => import('./scenes/CourseEditor/CourseEditor').then((m) => ({ default: m.CourseEditor })));
const NewLesson = lazy(() => import('./scenes/NewLesson/NewLesson').then((m) => ({ default: m.NewLesson })));
const QuestionBank = lazy(() => import('./scenes/QuestionBank/QuestionBank').then((m) => ({ default: m.QuestionBank })));
const Demo = lazy(() => import('./scenes/Demo/Demo').then((m) => ({ default: m.Demo })));

/** The screens on the server's data (the demos bring their own backend). */
const withApi = (scene: ReactNode) => <BackendContext.Provider value={apiBackend}>{scene}</BackendContext.Provider>;

const SCENES: Scenes<'mf_editor'> = {
  courseEditor: ({ courseId }) => withApi(<CourseEditor key={courseId} courseId={courseId} />),
  questionBank: ({ courseId }) => <QuestionBank key={courseId} courseId={courseId} />,
  newLesson: ({ moduleId }) => withApi(<NewLesson key={moduleId ?? ''} moduleId={moduleId ?? null} />),
  demo: () => <Demo key="index" kind="index" />,
  demoLessonEditor: () => <Demo key="lesson-editor" kind="lesson-editor" />,
  demoBlockEditor: () => <Demo key="block-editor" kind="block-editor" />,
  demoCourseEditor: () => <Demo key="course-editor" kind="course-editor" />,
};

/** The scenes of this micro-frontend; which path shows which is the route table's (web-core). */
export function Root() {
  return <Suspense fallback={<PageLoading />}>{useScene('mf_editor', SCENES)}</Suspense>;
}
