import type { MouseEvent } from 'react';
import styled from 'styled-components';
import { Button } from '@portal/ui';
import { useDarkMode } from '@portal/web-core';
import { IconTile } from '../../components/icons';
import { usePrerendering } from '../../components/prerendering';
import { StartAction } from './actions';
import { SECTIONS } from './content';

export const BRAND = 'Учебный портал';

/** Sticky header: the brand, links to the page's sections, the theme switch and sign-in. */
export function Header() {
  const [dark, toggleDark] = useDarkMode();
  // The pre-rendered page has no scripts yet: the switch waits for them rather than ignore a click.
  const prerendering = usePrerendering();
  return (
    <Bar>
      <Brand href="/" onClick={scrollToTop}>
        <Logo aria-hidden="true">∑</Logo>
        {BRAND}
      </Brand>
      <Nav aria-label="Разделы страницы">
        {SECTIONS.map((section) => (
          <a key={section.id} href={`#${section.id}`}>
            {section.label}
          </a>
        ))}
      </Nav>
      <Tools>
        <Button
          type="button"
          $variant="ghost"
          $size="icon"
          onClick={toggleDark}
          disabled={prerendering}
          aria-label={dark ? 'Светлая тема' : 'Тёмная тема'}
        >
          <span aria-hidden="true">{dark ? '☀' : '☾'}</span>
        </Button>
        <StartAction label="Войти" $size="sm" $variant="outline" />
      </Tools>
    </Bar>
  );
}

/** The brand on the landing itself goes back to the top and drops the section from the address. */
function scrollToTop(event: MouseEvent<HTMLAnchorElement>) {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  window.scrollTo({ top: 0 });
  if (window.location.hash) window.history.replaceState(null, '', window.location.pathname + window.location.search);
}

const Bar = styled.header`
  position: sticky;
  top: 0;
  z-index: 10;
  display: flex;
  align-items: center;
  gap: 16px 24px;
  flex-wrap: wrap;
  padding: 12px 24px;
  min-height: 64px;
  background: color-mix(in srgb, ${({ theme }) => theme.colors.bg} 88%, transparent);
  backdrop-filter: blur(10px);
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};
  @media (max-width: 760px) {
    padding: 10px 16px 0;
    gap: 8px 12px;
  }
`;
const Brand = styled.a`
  display: inline-flex;
  align-items: center;
  gap: 10px;
  font-weight: 700;
  font-size: 17px;
  text-decoration: none;
  color: ${({ theme }) => theme.colors.text};
`;
const Logo = styled(IconTile).attrs({ $size: 32, $radius: 8 })`
  font-size: 18px;
  background: ${({ theme }) => theme.colors.primary};
  color: ${({ theme }) => theme.colors.primaryText};
`;
const Nav = styled.nav`
  display: flex;
  gap: 4px;
  flex: 1;
  justify-content: center;
  a {
    padding: 8px 12px;
    border-radius: 8px;
    font-size: 15px;
    text-decoration: none;
    white-space: nowrap;
    color: ${({ theme }) => theme.colors.muted};
    &:hover {
      color: ${({ theme }) => theme.colors.text};
      background: ${({ theme }) => theme.colors.surfaceAlt};
    }
  }
  @media (max-width: 760px) {
    order: 3;
    flex-basis: 100%;
    justify-content: flex-start;
    overflow-x: auto;
    margin: 0 -8px;
    padding-bottom: 6px;
  }
`;
const Tools = styled.div`
  display: flex;
  align-items: center;
  gap: 8px;
  margin-left: auto;
  @media (max-width: 760px) {
    order: 2;
  }
`;
