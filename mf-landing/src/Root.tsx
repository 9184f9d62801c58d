import { lazy, Suspense } from 'react';
import { usePathname } from '@portal/web-core';
import { Landing } from './scenes/Landing/Landing';

// The landing is what every visitor loads first: the forms come only when asked for.
const AuthScene = lazy(() => import('./scenes/Auth/Auth').then((m) => ({ default: m.Auth })));
const RegisterScene = lazy(() => import('./scenes/Register/Register').then((m) => ({ default: m.Register })));

export function Root() {
  const pathname = usePathname().replace(/\/$/, '') || '/';
  return (
    <Suspense fallback={<p style={{ padding: 48, textAlign: 'center' }}>Загрузка...</p>}>
      {pathname === '/auth' ? <AuthScene /> : pathname === '/register' ? <RegisterScene /> : <Landing />}
    </Suspense>
  );
}
