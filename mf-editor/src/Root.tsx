import { lazy, Suspense } from 'react';
import { Muted, Page } from '@portal/ui';
import { usePathname } from '@portal/web-core';
import { apiBackend } from './api/content';
import { BackendContext } from './backend/backend';
import type { DemoKind } from './scenes/Demo/Demo';

const CourseEditor = lazy(() => import('./scenes/CourseEditor/CourseEditor').then((m) => ({ default: m.CourseEditor })));
const NewLesson = lazy(() => import('./scenes/NewLesson/NewLesson').then((m) => ({ default: m.NewLesson })));
const Demo = lazy(() => import('./scenes/Demo/Demo').then((m) => ({ default: m.Demo })));

type Screen =
  | { kind: 'course'; courseId: string }
  | { kind: 'new-lesson'; moduleId: string | null }
  | { kind: 'demo'; demo: DemoKind }
  | { kind: 'unknown' };

/** The routes of this micro-frontend (spec section 2). */
export function screenFor(pathname: string): Screen {
  const path = pathname.replace(/\/+$/, '') || '/';
  let match = /^\/editor\/([^/]+)$/.exec(path);
  if (match) return { kind: 'course', courseId: decodeURIComponent(match[1]) };
  match = /^\/lesson\/new(?:\/([^/]*))?$/.exec(path);
  if (match) return { kind: 'new-lesson', moduleId: match[1] ? decodeURIComponent(match[1]) : null };
  if (path === '/lesson-editor-demo' || path === '/demo/lesson-editor') return { kind: 'demo', demo: 'lesson-editor' };
  if (path === '/demo/block-editor') return { kind: 'demo', demo: 'block-editor' };
  if (path === '/demo/course-editor') return { kind: 'demo', demo: 'course-editor' };
  if (path === '/demo') return { kind: 'demo', demo: 'index' };
  return { kind: 'unknown' };
}

export function Root() {
  const screen = screenFor(usePathname());
  return (
    <Suspense
      fallback={
        <Page>
          <Muted role="status">Загрузка...</Muted>
        </Page>
      }
    >
      {screen.kind === 'demo' ? (
        <Demo key={screen.demo} kind={screen.demo} />
      ) : (
        <BackendContext.Provider value={apiBackend}>
          {screen.kind === 'course' && <CourseEditor key={screen.courseId} courseId={screen.courseId} />}
          {screen.kind === 'new-lesson' && <NewLesson key={screen.moduleId ?? ''} moduleId={screen.moduleId} />}
          {screen.kind === 'unknown' && (
            <Page>
              <Muted>Страница не найдена</Muted>
            </Page>
          )}
        </BackendContext.Provider>
      )}
    </Suspense>
  );
}
