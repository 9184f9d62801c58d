import { Button, Page } from '@portal/ui';
import { navigate, usePathname } from '@portal/web-core';
import { Dashboard } from './scenes/Dashboard/Dashboard';

/** The dashboard micro-frontend answers /dashboard (spec section 2). */
export function Root() {
  const pathname = usePathname();
  if (/^\/dashboard\/?$/.test(pathname)) return <Dashboard />;
  return (
    <Page data-mf="mf_dashboard">
      <h1>Страница не найдена</h1>
      <Button onClick={() => navigate('/dashboard')}>На главную</Button>
    </Page>
  );
}
