import { lazy, Suspense } from 'react';
import { PageLoading } from '@portal/ui';
import { useScene, type Scenes } from '@portal/web-core';
import { CourseList } from './scenes/CourseList/CourseList';

// Most visits are to the list; the form comes only when asked for.
const NewCourse = lazy(() => import('./scenes/NewCourse/NewCourse').then((m) => ({ default: m.NewCourse })));

const SCENES: Scenes<'mf_courses'> = {
  courseList: () => <CourseList />,
  newCourse: () => <NewCourse />,
};

/** The scenes of this micro-frontend; which path shows which is the route table's (web-core). */
export function Root() {
  return <Suspense fallback={<PageLoading />}>{useScene('mf_courses', SCENES)}</Suspense>;
}
