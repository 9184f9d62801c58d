import { lazy, useDeferredValue, useEffect, useState, type ComponentType } from 'react';
import styled from 'styled-components';
import { ROLE_LABELS, homePathFor, isStaff } from '@portal/contracts/roles';
import { Button, LazyPart, Page, PartFailed } from '@portal/ui';
import {
  SIGN_IN_PATH,
  currentNavItem,
  decide,
  navigate,
  navigationFor,
  resolve,
  signInPathFor,
  useAuth,
  useDarkMode,
  usePathname,
  useSearch,
} from '@portal/web-core';
import { AccessDenied } from './AccessDenied';
import { AccountMenu } from './AccountMenu';
import { BellIcon } from './BellIcon';
import { PHONE } from './layout';
import { useConsent } from './useConsent';

// The bell reads notifications through the query cache: its files, TanStack Query with them, come only
// when a signed-in page shows the header (a visitor's landing loads none of it).
const NotificationBell = lazy(() => import('./NotificationBell').then((m) => ({ default: m.NotificationBell })));
const ReviewsWaiting = lazy(() => import('./ReviewsWaiting').then((m) => ({ default: m.ReviewsWaiting })));

// The dialogs come when one is first needed; the account menu asks for them as it opens.
const loadDialogs = () => import('./dialogs');
type Dialogs = Awaited<ReturnType<typeof loadDialogs>>;
const lazyDialog = <K extends keyof Dialogs>(name: K) =>
  lazy(() => loadDialogs().then((m) => ({ default: m[name] as ComponentType<Parameters<Dialogs[K]>[0]> })));
const AboutDialog = lazyDialog('AboutDialog');
const ChangePasswordDialog = lazyDialog('ChangePasswordDialog');
const ConsentDialog = lazyDialog('ConsentDialog');
const ConsentRequiredDialog = lazyDialog('ConsentRequiredDialog');
const ConfirmDialog = lazyDialog('ConfirmDialog');

/** The bell's place while its files come (or if they cannot): the same button, so nothing beside it moves. */
const BellPlace = () => (
  <Button $variant="ghost" $size="sm" aria-label="Уведомления" disabled>
    <BellIcon />
  </Button>
);

/** «Борис Орлов» → «БО»: the first letters of the name's first two words. */
export const initialsOf = (fullName: string): string =>
  fullName
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0].toUpperCase())
    .join('');

/** The portal chrome: the header with each person's navigation and the route guard for every protected route. */
export function Chrome() {
  const pathname = usePathname();
  const search = useSearch();
  const auth = useAuth();
  const { logout, logoutEverywhere } = auth;
  // The store's change (the profile read at the start, a sign-in) renders in one task however large
  // the header it brings; the deferred copies render it in a transition, in slices, right after.
  // The guard decides on the live state: a page opened before the copies catch up (the sign-in form
  // sends the person on at once) would otherwise be judged as signed out and sent back to /auth.
  const status = useDeferredValue(auth.status);
  const user = useDeferredValue(auth.user);
  const [changingPassword, setChangingPassword] = useState(false);
  const [askingEverywhere, setAskingEverywhere] = useState(false);
  const [about, setAbout] = useState(false);
  const [consentOpen, setConsentOpen] = useState(false);
  const [dark, toggleDark] = useDarkMode();
  const decision = decide(pathname, { status: auth.status, role: auth.user?.role ?? null });

  useEffect(() => {
    // The page asked for is remembered, so signing in comes back to it.
    if (decision.kind === 'login') navigate(signInPathFor(window.location), { replace: true });
  }, [decision.kind]);

  // Public pages (landing, sign-in, demo) have their own chrome; every other page, an unknown one too, keeps the header.
  const onPortalPage = !!user && resolve(pathname)?.route.access !== 'public';
  const staff = !!user && isStaff(user.role);
  const consent = useConsent(status === 'ready' && !!user);
  const links = user ? navigationFor(user.role) : [];
  const current = currentNavItem(links, pathname, search);
  const home = user ? homePathFor(user.role) : '/';
  const signOut = async () => {
    // A corporate session ends at the provider too, which sends the browser back to /auth.
    const provider = await logout();
    if (provider) window.location.assign(provider);
    else navigate(SIGN_IN_PATH);
  };
  const signOutEverywhere = async () => {
    setAskingEverywhere(false);
    try {
      await logoutEverywhere();
    } catch {
      // Whatever the server said, this device is signed out.
      await logout();
    }
    navigate(SIGN_IN_PATH);
  };

  return (
    <>
      {onPortalPage && user && (
        // Staff get the navigation; learners (no navigation in the spec) still see who they are and can sign out.
        <Bar aria-label={staff ? 'Основная навигация' : 'Учётная запись'} $slim={!staff}>
          <Brand href={home} onClick={(e) => (e.preventDefault(), navigate(home))}>
            Учебный портал
          </Brand>
          <Links>
            {links.map((item) => (
              <NavLink
                key={item.href}
                href={item.href}
                aria-current={item === current ? 'page' : undefined}
                onClick={(e) => {
                  if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
                  e.preventDefault();
                  navigate(item.href);
                }}
              >
                {item.label}
                {item.count === 'reviewsWaiting' && (
                  <LazyPart fallback={null}>
                    <ReviewsWaiting />
                  </LazyPart>
                )}
              </NavLink>
            ))}
          </Links>
          <UserBox>
            <LazyPart fallback={<BellPlace />}>
              <NotificationBell />
            </LazyPart>
            <AccountMenu
              label={`${user.fullName} · ${ROLE_LABELS[user.role]}`}
              initials={initialsOf(user.fullName)}
              onChangePassword={() => setChangingPassword(true)}
              onSignOutEverywhere={() => setAskingEverywhere(true)}
              onAbout={() => setAbout(true)}
              onConsent={() => setConsentOpen(true)}
              onSignOut={() => void signOut()}
              onOpen={() => void loadDialogs().catch(() => undefined)}
            />
            {/* Outlined: a bare ☾ on the light theme's white was barely visible. */}
            <Button $variant="outline" $size="sm" onClick={toggleDark} aria-label={dark ? 'Светлая тема' : 'Тёмная тема'}>
              {dark ? '☀' : '☾'}
            </Button>
            <SignOut $variant="outline" $size="sm" onClick={signOut}>
              Выйти
            </SignOut>
          </UserBox>
        </Bar>
      )}
      <LazyPart fallback={null} failed={<PartFailed what="окно" />}>
        {changingPassword && user && <ChangePasswordDialog onClose={() => setChangingPassword(false)} />}
        {about && <AboutDialog onClose={() => setAbout(false)} />}
        {onPortalPage && consent.state?.required && !consentOpen && (
          <ConsentRequiredDialog onAccepted={() => void consent.reload()} onSignOut={() => void signOut()} />
        )}
        {consentOpen && (
          <ConsentDialog state={consent.state} onClose={() => setConsentOpen(false)} onChanged={() => void consent.reload()} />
        )}
        {askingEverywhere && (
          <ConfirmDialog
            title="Выйти на всех устройствах"
            message="Все ваши сеансы, на всех устройствах и в этом браузере тоже, будут завершены."
            confirmLabel="Выйти везде"
            onConfirm={() => void signOutEverywhere()}
            onCancel={() => setAskingEverywhere(false)}
          />
        )}
      </LazyPart>
      {decision.kind === 'loading' && <Page aria-busy="true">Загрузка...</Page>}
      {decision.kind === 'denied' && <AccessDenied role={decision.role} required={decision.required} />}
      {decision.kind === 'unknown' && (
        <Page>
          <h1>Страница не найдена</h1>
          <Button onClick={() => navigate(home)}>На главную</Button>
        </Page>
      )}
    </>
  );
}

const Bar = styled.nav<{ $slim?: boolean }>`
  display: flex;
  align-items: center;
  gap: 24px;
  padding: 6px 24px;
  /* Nothing is ever cut: links that do not fit on the line wrap under each other. */
  flex-wrap: wrap;
  min-height: ${({ $slim }) => ($slim ? '52px' : '60px')};
  background: ${({ theme }) => theme.colors.surface};
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};
  /* A phone: the brand and the account on one line, the links below. */
  ${PHONE} {
    gap: 4px 12px;
    padding: 8px 12px;
  }
`;
const Brand = styled.a`
  font-weight: 700;
  text-decoration: none;
  color: ${({ theme }) => theme.colors.text};
`;
const Links = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 4px;
  flex: 1 1 480px;
  min-width: 0;
  white-space: nowrap;
  ${PHONE} {
    order: 3;
    flex-basis: 100%;
  }
`;
const NavLink = styled.a`
  padding: 8px 12px;
  border-radius: 8px;
  text-decoration: none;
  color: ${({ theme }) => theme.colors.muted};
  &[aria-current='page'] {
    color: ${({ theme }) => theme.colors.text};
    background: ${({ theme }) => theme.colors.surfaceAlt};
  }
`;
const UserBox = styled.div`
  display: flex;
  align-items: center;
  gap: 8px;
  min-width: 0;
  ${PHONE} {
    flex: 1;
    justify-content: flex-end;
  }
  font-size: 14px;
  color: ${({ theme }) => theme.colors.muted};
`;
/** A phone's header has no room for it beside the bell, the menu and the theme button: the account menu offers it there. */
const SignOut = styled(Button)`
  ${PHONE} {
    display: none;
  }
`;
