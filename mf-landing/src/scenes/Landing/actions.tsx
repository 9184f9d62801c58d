import { useEffect, useState, type MouseEvent } from 'react';
import styled from 'styled-components';
import type { Role } from '@portal/contracts';
import { Button, type ButtonSize, type ButtonVariant } from '@portal/ui';
import { navigate, useAuth } from '@portal/web-core';

export const AUTH_PATH = '/auth';
export const PORTAL_LINK_LABEL = 'Перейти в портал';

/** A link styled as a button: in-page anchors and page changes stay links (new tab, copy link). */
export const LinkButton = styled(Button).attrs({ as: 'a' })`
  text-decoration: none;
`;

/** A plain left click changes the page in place; with a modifier the browser does what it does. */
export const navigateOnClick = (path: string) => (event: MouseEvent<HTMLAnchorElement>) => {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  navigate(path);
};

interface StartProps {
  label: string;
  $variant?: ButtonVariant;
  $size?: ButtonSize;
}

/**
 * A sign-in call to action ('Начать обучение', 'Начать бесплатно', 'Войти'): a link to /auth, so it
 * works in the pre-rendered page before the scripts come; a signed-in visitor gets a link to their
 * portal home instead. While a stored session is being checked the slot keeps its place but shows
 * nothing, so the links do not flicker.
 */
export function StartAction({ label, $variant, $size = 'lg' }: StartProps) {
  const { status, user } = useAuth();
  const home = usePortalHome(user?.role);
  if (user && home) {
    return (
      <LinkButton href={home} onClick={navigateOnClick(home)} $size={$size} $variant={$variant}>
        {PORTAL_LINK_LABEL}
      </LinkButton>
    );
  }
  return (
    <Pending
      href={AUTH_PATH}
      onClick={navigateOnClick(AUTH_PATH)}
      $pending={status === 'loading' || !!user}
      $variant={$variant}
      $size={$size}
    >
      {label}
    </Pending>
  );
}

/**
 * Where a signed-in visitor's portal starts (`homePathFor`: each role's home after sign-in). The contracts carry
 * zod, which an anonymous visitor of the landing never needs, so they load only for a signed-in one.
 */
function usePortalHome(role: Role | undefined): string | null {
  const [home, setHome] = useState<{ role: Role; path: string } | null>(null);
  useEffect(() => {
    if (!role) return;
    let current = true;
    void import('@portal/contracts').then(({ homePathFor }) => {
      if (current) setHome({ role, path: homePathFor(role) });
    });
    return () => {
      current = false;
    };
  }, [role]);
  return role && home?.role === role ? home.path : null;
}

const Pending = styled(LinkButton)<{ $pending: boolean }>`
  visibility: ${({ $pending }) => ($pending ? 'hidden' : 'visible')};
`;
