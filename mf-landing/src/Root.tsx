import { lazy, Suspense, type ComponentType } from 'react';
import { usePathname } from '@portal/web-core';
import { Landing } from './scenes/Landing/Landing';

// The landing is what every visitor loads first: the forms come only when asked for.
const AuthScene = lazy(() => import('./scenes/Auth/Auth').then((m) => ({ default: m.Auth })));
const RegisterScene = lazy(() => import('./scenes/Register/Register').then((m) => ({ default: m.Register })));
const ResetScene = lazy(() => import('./scenes/ResetPassword/ResetPassword').then((m) => ({ default: m.ResetPassword })));

const SCENES: Record<string, ComponentType> = { '/auth': AuthScene, '/register': RegisterScene, '/auth/reset': ResetScene };

export function Root() {
  const pathname = usePathname().replace(/\/$/, '') || '/';
  const Scene = SCENES[pathname] ?? Landing;
  return (
    <Suspense fallback={<p style={{ padding: 48, textAlign: 'center' }}>Загрузка...</p>}>
      <Scene />
    </Suspense>
  );
}
