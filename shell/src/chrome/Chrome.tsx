import { useEffect } from 'react';
import styled from 'styled-components';
import { ROLE_LABELS, isStaff } from '@portal/contracts/roles';
import { Button, Page } from '@portal/ui';
import { decide, navigate, useAuth, useDarkMode, usePathname } from '@portal/web-core';
import { AccessDenied } from './AccessDenied';

const NAV = [
  { href: '/dashboard', label: 'Главная' },
  { href: '/courses', label: 'Курсы' },
  { href: '/crm/orgs', label: 'Организации' },
  { href: '/crm/contacts', label: 'Контакты' },
];

/** The portal chrome: top navigation for staff and the route guard for every protected route. */
export function Chrome() {
  const pathname = usePathname();
  const { status, user, logout } = useAuth();
  const [dark, toggleDark] = useDarkMode();
  const decision = decide(pathname, { status, role: user?.role ?? null });

  useEffect(() => {
    if (decision.kind === 'login') navigate('/auth', { replace: true });
  }, [decision.kind]);

  const onPortalPage =
    decision.kind !== 'unknown' && !!user && !['/', '/auth', '/register'].includes(pathname) && !pathname.startsWith('/demo');
  const showNav = onPortalPage && !!user && isStaff(user.role);
  const home = showNav ? '/dashboard' : '/courses';
  const signOut = async () => {
    await logout();
    navigate('/auth');
  };

  return (
    <>
      {onPortalPage && user && (
        // Staff get the navigation; learners (no navigation in the spec) still see who they are and can sign out.
        <Bar aria-label={showNav ? 'Основная навигация' : 'Учётная запись'} $slim={!showNav}>
          <Brand href={home} onClick={(e) => (e.preventDefault(), navigate(home))}>
            Учебный портал
          </Brand>
          {showNav ? (
            <Links>
              {NAV.map((item) => (
                <NavLink
                  key={item.href}
                  href={item.href}
                  aria-current={pathname.startsWith(item.href) ? 'page' : undefined}
                  onClick={(e) => {
                    e.preventDefault();
                    navigate(item.href);
                  }}
                >
                  {item.label}
                </NavLink>
              ))}
            </Links>
          ) : (
            <Spacer />
          )}
          <UserBox>
            <span>
              {user.fullName} · {ROLE_LABELS[user.role]}
            </span>
            <Button $variant="ghost" $size="sm" onClick={toggleDark} aria-label={dark ? 'Светлая тема' : 'Тёмная тема'}>
              {dark ? '☀' : '☾'}
            </Button>
            <Button $variant="outline" $size="sm" onClick={signOut}>
              Выйти
            </Button>
          </UserBox>
        </Bar>
      )}
      {decision.kind === 'loading' && <Page aria-busy="true">Загрузка...</Page>}
      {decision.kind === 'denied' && <AccessDenied role={decision.role} required={decision.required} />}
      {decision.kind === 'unknown' && (
        <Page>
          <h1>Страница не найдена</h1>
          <Button onClick={() => navigate(user ? '/courses' : '/')}>На главную</Button>
        </Page>
      )}
    </>
  );
}

const Bar = styled.nav<{ $slim?: boolean }>`
  display: flex;
  align-items: center;
  gap: 24px;
  padding: 0 24px;
  height: ${({ $slim }) => ($slim ? '52px' : '60px')};
  background: ${({ theme }) => theme.colors.surface};
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};
`;
const Brand = styled.a`
  font-weight: 700;
  text-decoration: none;
  color: ${({ theme }) => theme.colors.text};
`;
const Spacer = styled.div`
  flex: 1;
`;
const Links = styled.div`
  display: flex;
  gap: 4px;
  flex: 1;
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
  font-size: 14px;
  color: ${({ theme }) => theme.colors.muted};
`;
