import { useState } from 'react';
import styled from 'styled-components';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { STAFF_ROLES, type ProgramStatus, type ProgramSummary } from '@portal/contracts';
import {
  Badge,
  Button,
  Card,
  ErrorBox,
  FilterInput,
  Muted,
  Page,
  PagedList,
  PlainList,
  Row,
  Spread,
  useDebounced,
} from '@portal/ui';
import { errorMessage, navigate, paths, useAuth } from '@portal/web-core';
import { createProgram, fetchPrograms, programKeys } from '../../api/programs';
import { formatDate } from '../../format';
import { courseCount, stageCount } from '../../components/programs/format';
import { TitleBar } from '../../components/programs/layout';
import { follow } from '../../components/programs/links';
import { emptyDraft, inputOf, newStageKey } from '../../components/programs/stagesModel';
import { useUrlParams } from '../../components/programs/useUrlParams';
import { ProgramAssignments } from './ProgramAssignments';
import { TemplatesDialog } from './TemplatesDialog';

const TABS: Array<{ status: ProgramStatus; label: string }> = [
  { status: 'active', label: 'Активные' },
  { status: 'archived', label: 'Архив' },
];
const URL_KEYS = ['search', 'status'] as const;

/** /programs «Программы обучения»: the programs, their templates and assignments; ADMIN and CURATOR make them, MANAGER reads. */
export function Programs() {
  const { user } = useAuth();
  const canCreate = !!user && STAFF_ROLES.includes(user.role);
  const { params, setFilter, setPage } = useUrlParams(URL_KEYS);
  const status: ProgramStatus = params.status === 'archived' ? 'archived' : 'active';
  const search = useDebounced(params.search.trim(), 400);
  const [templatesOpen, setTemplatesOpen] = useState(false);
  const list = useQuery({
    queryKey: programKeys.list(params.page, search, status),
    queryFn: ({ signal }) => fetchPrograms(params.page, search, status, signal),
    placeholderData: keepPreviousData,
  });
  // A new program starts as one empty stage under a working title, and opens in the editor.
  const create = useMutation({
    mutationFn: () => createProgram({ ...inputOf(emptyDraft(newStageKey())), title: 'Новая программа' }),
    onSuccess: (program) => navigate(paths.programEditor(program.id)),
  });

  return (
    <Page data-mf="mf_dashboard">
      <TitleBar>
        <h1>Программы обучения</h1>
        {canCreate && (
          <Row>
            <Button type="button" $variant="outline" onClick={() => setTemplatesOpen(true)}>
              Из шаблона
            </Button>
            <Button type="button" disabled={create.isPending} onClick={() => create.mutate()}>
              Создать программу
            </Button>
          </Row>
        )}
      </TitleBar>
      {create.isError && <ErrorBox>{errorMessage(create.error, 'Не удалось создать программу')}</ErrorBox>}
      <Toolbar>
        <Tabs role="tablist" aria-label="Программы по статусу">
          {TABS.map((tab) => (
            <Tab
              key={tab.status}
              type="button"
              role="tab"
              aria-selected={status === tab.status}
              $active={status === tab.status}
              onClick={() => setFilter('status', tab.status === 'active' ? '' : tab.status)}
            >
              {tab.label}
            </Tab>
          ))}
        </Tabs>
        <Search>
          <FilterInput
            type="search"
            label="Поиск программ"
            placeholder="Поиск по названию"
            maxLength={200}
            value={params.search}
            onValue={(value) => setFilter('search', value)}
          />
        </Search>
      </Toolbar>
      <PagedList
        query={list}
        failed="Не удалось загрузить программы"
        empty={
          <Muted>
            {search ? 'Под этот поиск программ нет' : status === 'archived' ? 'В архиве программ нет' : 'Программ пока нет'}
          </Muted>
        }
        onPage={setPage}
      >
        {(rows, busy) => (
          <PlainList $gap={12} aria-label="Программы" aria-busy={busy}>
            {rows.map((p) => (
              <ProgramItem key={p.id} program={p} canOpen={canCreate} />
            ))}
          </PlainList>
        )}
      </PagedList>
      {templatesOpen && <TemplatesDialog onClose={() => setTemplatesOpen(false)} />}
    </Page>
  );
}

/** One program: its title (the editor's link for staff), counts, author, and its assignments on request. */
function ProgramItem({ program, canOpen }: { program: ProgramSummary; canOpen: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <Item as="li" aria-label={program.title}>
      <Line>
        <h2>
          {canOpen ? (
            <a href={paths.programEditor(program.id)} onClick={follow(paths.programEditor(program.id))}>
              {program.title}
            </a>
          ) : (
            program.title
          )}
        </h2>
        {program.status === 'archived' && <Badge>в архиве</Badge>}
      </Line>
      <Muted>
        {stageCount(program.stageCount)} · {courseCount(program.courseCount)} · автор {program.owner.fullName} · изменена{' '}
        {formatDate(program.updatedAt)}
      </Muted>
      <div>
        <Button type="button" $variant="link" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
          {open ? 'Скрыть назначения' : 'Назначения'}
        </Button>
        {open && <ProgramAssignments programId={program.id} title={program.title} />}
      </div>
    </Item>
  );
}

const Toolbar = styled(Spread)`
  margin-bottom: 16px;
`;

const Tabs = styled.div`
  display: inline-flex;
  gap: 4px;
  padding: 4px;
  border-radius: 10px;
  background: ${({ theme }) => theme.colors.surfaceAlt};
`;

const Tab = styled.button<{ $active: boolean }>`
  padding: 6px 14px;
  border: 0;
  border-radius: 8px;
  font: inherit;
  cursor: pointer;
  color: ${({ theme }) => theme.colors.text};
  background: ${({ theme, $active }) => ($active ? theme.colors.surface : 'transparent')};
  font-weight: ${({ $active }) => ($active ? 600 : 400)};
  &:focus-visible {
    outline: 2px solid ${({ theme }) => theme.colors.focus};
  }
`;

const Search = styled.div`
  flex: 0 1 320px;
  min-width: 0;
`;

const Item = styled(Card)`
  display: grid;
  gap: 4px;
  padding: 16px;
  min-width: 0;
  overflow-wrap: anywhere;
  h2 {
    margin: 0;
    font-size: 18px;
  }
  p {
    margin: 0;
  }
`;

const Line = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
  align-items: center;
`;
