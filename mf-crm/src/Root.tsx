import { useEffect } from 'react';
import { Button, Page } from '@portal/ui';
import { navigate, usePathname } from '@portal/web-core';
import { screenFor } from './routes';
import { Directory } from './scenes/Directory/Directory';
import { Organization } from './scenes/Organization/Organization';
import { Organizations } from './scenes/Organizations/Organizations';

export function Root() {
  const screen = screenFor(usePathname());

  useEffect(() => {
    if (screen.kind === 'home') navigate('/crm/orgs', { replace: true });
  }, [screen.kind]);

  switch (screen.kind) {
    case 'orgs':
      return <Organizations />;
    case 'org':
      // Keyed, so moving between organizations starts each screen afresh.
      return <Organization key={screen.id} id={screen.id} />;
    case 'contacts':
      return <Directory />;
    case 'home':
      return null;
    default:
      return (
        <Page data-mf="mf_crm">
          <h1>Страница не найдена</h1>
          <Button onClick={() => navigate('/crm/orgs')}>К организациям</Button>
        </Page>
      );
  }
}
