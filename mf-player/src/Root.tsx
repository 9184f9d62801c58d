import { Page, Muted } from '@portal/ui';
import { usePathname } from '@portal/web-core';

/** Wired into the route table; the screens of this section are built by their own issue. */
export function Root() {
  const pathname = usePathname();
  return (
    <Page data-mf="mf_player">
      <h1>Режим обучения</h1>
      <Muted>Раздел в разработке: {pathname}</Muted>
    </Page>
  );
}
