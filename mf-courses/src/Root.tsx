import { lazy, Suspense } from 'react';
import { Muted, Page } from '@portal/ui';
import { usePathname } from '@portal/web-core';
import { CourseList } from './scenes/CourseList/CourseList';

// Most visits are to the list; the form comes only when asked for.
const NewCourse = lazy(() => import('./scenes/NewCourse/NewCourse').then((m) => ({ default: m.NewCourse })));

/** The routes of this micro-frontend: /courses and /courses/create (also /courses/new, spec section 2). */
export function Root() {
  const pathname = usePathname().replace(/\/$/, '');
  const creating = pathname === '/courses/create' || pathname === '/courses/new';
  return (
    <Suspense
      fallback={
        <Page>
          <Muted role="status">Загрузка...</Muted>
        </Page>
      }
    >
      {creating ? <NewCourse /> : <CourseList />}
    </Suspense>
  );
}
