import { lazy, Suspense } from 'react';
import { useScene, type Scenes } from '@portal/web-core';
import { Landing } from './scenes/Landing/Landing';

// The landing is what every visitor loads first: the forms come only when asked for.
const AuthScene = lazy(() => import('./scenes/Auth/Auth').then((m) => ({ default: m.Auth })));
const RegisterScene = lazy(() => import('./scenes/Register/Register').then((m) => ({ default: m.Register })));
const ResetScene = lazy(() => import('./scenes/ResetPassword/ResetPassword').then((m) => ({ default: m.ResetPassword })));
const VerifyScene = lazy(() =>
  import('./scenes/VerifyCertificate/VerifyCertificate').then((m) => ({ default: m.VerifyCertificate })),
);

const SCENES: Scenes<'mf_landing'> = {
  landing: () => <Landing />,
  signIn: () => <AuthScene />,
  register: () => <RegisterScene />,
  resetPassword: () => <ResetScene />,
  verifyCertificate: ({ number }) => <VerifyScene key={number} number={number} />,
};

/** The scenes of this micro-frontend; which path shows which is the route table's (web-core). */
export function Root() {
  return (
    <Suspense fallback={<p style={{ padding: 48, textAlign: 'center' }}>Загрузка...</p>}>
      {useScene('mf_landing', SCENES)}
    </Suspense>
  );
}
