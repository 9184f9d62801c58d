import { Muted, Page } from '@portal/ui';
import { usePathname } from '@portal/web-core';
import { Results } from './scenes/Results/Results';
import { StudyMode } from './scenes/StudyMode/StudyMode';

/** The routes of this micro-frontend: /student/{courseId} (study mode) and /results. */
export function Root() {
  const pathname = usePathname().replace(/\/$/, '');
  const study = /^\/student\/([^/]+)$/.exec(pathname);
  if (study) return <StudyMode key={study[1]} courseId={decodeURIComponent(study[1])} />;
  if (pathname === '/results') return <Results />;
  return (
    <Page>
      <Muted>Страница не найдена</Muted>
    </Page>
  );
}
