import type { MouseEvent } from 'react';
import styled from 'styled-components';
import { CRM_ROLES, isStaff, type Role } from '@portal/contracts';
import { PlainList } from '@portal/ui';
import { decide, navigate, paths } from '@portal/web-core';

export interface QuickAction {
  label: string;
  path: string;
  icon: string;
}

const STAFF_ACTIONS: QuickAction[] = [
  { label: 'Создать курс', path: paths.newCourse(), icon: '+' },
  { label: 'Управление курсами', path: paths.courses(), icon: '▤' },
  { label: 'Организации', path: paths.organizations(), icon: '⌂' },
  { label: 'Пользователи', path: paths.contacts(), icon: '☺' },
];
const LEARNER_ACTIONS: QuickAction[] = [
  { label: 'Мои курсы', path: paths.courses(), icon: '▤' },
  { label: 'Результаты', path: paths.results(), icon: '✔' },
];
const CRM_ACTIONS = STAFF_ACTIONS.slice(2);

/**
 * ADMIN and CURATOR get create course, manage courses, organizations and contacts;
 * everyone else my courses and results. Only what the role may open is offered: a MANAGER cannot
 * open the results (a learners' screen) but does work in the CRM.
 */
export function quickActionsFor(role: Role): QuickAction[] {
  const candidates = isStaff(role) ? STAFF_ACTIONS : [...LEARNER_ACTIONS, ...(CRM_ROLES.includes(role) ? CRM_ACTIONS : [])];
  return candidates.filter((a) => decide(a.path, { status: 'ready', role }).kind === 'allow');
}

export function QuickActions({ role }: { role: Role }) {
  const go = (path: string) => (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return; // a new tab or window: let the browser do it
    e.preventDefault();
    navigate(path);
  };
  return (
    <List>
      {quickActionsFor(role).map((action) => (
        <li key={action.path + action.label}>
          <Action href={action.path} onClick={go(action.path)}>
            <Icon aria-hidden="true">{action.icon}</Icon>
            {action.label}
          </Action>
        </li>
      ))}
    </List>
  );
}

const List = styled(PlainList)`
  grid-template-columns: repeat(auto-fill, minmax(180px, 1fr));
`;

const Action = styled.a`
  display: flex;
  align-items: center;
  gap: 10px;
  padding: 12px 14px;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius};
  background: ${({ theme }) => theme.colors.surfaceAlt};
  color: ${({ theme }) => theme.colors.text};
  font-weight: 600;
  text-decoration: none;
  &:hover {
    border-color: ${({ theme }) => theme.colors.primary};
  }
`;

const Icon = styled.span`
  display: inline-grid;
  place-items: center;
  flex: none;
  width: 28px;
  height: 28px;
  border-radius: 8px;
  font-weight: 700;
  background: ${({ theme }) => theme.colors.primary};
  color: ${({ theme }) => theme.colors.primaryText};
`;
