import { lazy, Suspense, useCallback, useEffect, useState, type ComponentType } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import styled from 'styled-components';
import {
  CONTENT_MSG,
  STUDY_ROLES,
  canEditCourse,
  canReadCourseAsAuthor,
  isStaff,
  type CourseStatus,
  type CourseSummary,
  type Page as ListPage,
} from '@portal/contracts';
import {
  Button,
  ConfirmDialog,
  EmptyState,
  Input,
  Page,
  PageHeader,
  PagedList,
  Row,
  Select,
  useDebounced,
  useToast,
} from '@portal/ui';
import { errorMessage, navigate, paths, useAuth } from '@portal/web-core';
import { readAgain } from '@portal/web-core/query';
import {
  COURSES_KEY,
  copyCourse,
  courseListKey,
  deleteCourse,
  fetchCourses,
  setFavorite,
  startCourse,
  type CourseListView,
} from '../../api/courses';
import { AssignedCourses } from '../../components/AssignedCourses';
import { CourseCard } from '../../components/CourseCard';
import { GridIcon, ListIcon, SparkIcon } from '../../components/Icons';
import { useListParams } from '../../hooks/useListParams';
import { useViewMode, type ViewMode } from '../../hooks/useViewMode';

const STATUS_OPTIONS: Array<{ value: CourseStatus | 'all'; label: string }> = [
  { value: 'all', label: 'Все статусы' },
  { value: 'published', label: 'Опубликованные' },
  { value: 'draft', label: 'Черновики' },
  { value: 'hidden', label: 'Скрытые' },
];
const FILTER_OPTIONS: Array<{ value: CourseListView; label: string }> = [
  { value: 'all', label: 'Все курсы' },
  { value: 'favorites', label: 'Избранные' },
  { value: 'started', label: 'Начатые' },
];
/** For those who study: their assignments. */
const ASSIGNED_OPTION: { value: CourseListView; label: string } = { value: 'assigned', label: 'Мои назначения' };
// The builder is opened rarely and only by authors: its code comes when first wanted.
const loadBuilder = () => import('../../components/CourseBuilderDialog');
const CourseBuilderDialog = lazy(() => loadBuilder().then((m) => ({ default: m.CourseBuilderDialog })));

const VIEWS: Array<{ mode: ViewMode; label: string; Icon: ComponentType }> = [
  { mode: 'grid', label: 'Сеткой', Icon: GridIcon },
  { mode: 'list', label: 'Списком', Icon: ListIcon },
];

/** /courses: the course list, for every signed-in person. */
export function CourseList() {
  const { user } = useAuth();
  const author = isStaff(user?.role);
  const queryClient = useQueryClient();
  const toast = useToast();
  const [params, setParams] = useListParams();
  const setPage = useCallback((page: number) => setParams({ page }), [setParams]);
  const [view, setView] = useViewMode();
  const [toDelete, setToDelete] = useState<CourseSummary | null>(null);
  const [building, setBuilding] = useState(false);
  const search = useDebounced(params.search);
  // Learners only ever see published courses, so the status filter is for authors.
  const query = { ...params, search, status: author ? params.status : ('all' as const) };
  const studies = !!user && STUDY_ROLES.includes(user.role);
  const assigned = studies && params.filter === 'assigned';

  const courses = useQuery({
    queryKey: courseListKey(query),
    queryFn: ({ signal }) => fetchCourses(query, signal),
    placeholderData: keepPreviousData,
    enabled: !!user && !assigned,
  });
  const refresh = () => readAgain(queryClient, COURSES_KEY);

  // Failures of these actions are only logged.
  // Several hearts may be in flight at once; each stays disabled until its own call ends.
  const [favoritesInFlight, setFavoritesInFlight] = useState<ReadonlySet<string>>(new Set());
  const markInFlight = (id: string, busy: boolean) =>
    setFavoritesInFlight((ids) => {
      const next = new Set(ids);
      if (busy) next.add(id);
      else next.delete(id);
      return next;
    });
  const favorite = useMutation({
    mutationFn: (course: CourseSummary) => setFavorite(course.id, !course.isFavorite),
    onMutate: (course) => markInFlight(course.id, true),
    onSettled: (_data, _err, course) => markInFlight(course.id, false),
    onSuccess: (updated) => {
      queryClient.setQueriesData<ListPage<CourseSummary>>(
        { queryKey: COURSES_KEY },
        (list) =>
          list && { ...list, data: list.data.map((c) => (c.id === updated.id ? { ...c, isFavorite: updated.isFavorite } : c)) },
      );
      void refresh();
    },
    onError: (err) => console.error('Не удалось изменить избранное:', errorMessage(err)),
  });
  const copy = useMutation({
    mutationFn: (course: CourseSummary) => copyCourse(course.id),
    onSuccess: () => void refresh(),
    onError: (err) => toast.failed(err, 'Не удалось скопировать курс'),
  });
  const remove = useMutation({
    mutationFn: (course: CourseSummary) => deleteCourse(course.id),
    onSuccess: (answer, course) => {
      setToDelete(null);
      if (answer?.archived) {
        // Kept (learners worked in it) and hidden from them: the card stays, marked archived.
        toast.show(answer.message);
        void refresh();
        return;
      }
      queryClient.setQueriesData<ListPage<CourseSummary>>(
        { queryKey: COURSES_KEY },
        (list) => list && { ...list, data: list.data.filter((c) => c.id !== course.id), total: list.total - 1 },
      );
      void refresh();
    },
    onError: (err) => {
      toast.failed(err, 'Не удалось удалить курс');
      setToDelete(null);
    },
  });

  /** Authors go to the editor; everyone else is marked as having started and goes to study mode. */
  const open = async (course: CourseSummary) => {
    if (author) return navigate(paths.editor(course.id));
    if (!course.isStarted)
      await startCourse(course.id).catch((err: unknown) => console.error('Не удалось отметить начало курса:', errorMessage(err)));
    navigate(paths.student(course.id));
  };

  const filtering = !!params.search.trim() || (author && params.status !== 'all') || params.filter !== 'all';
  const list = courses.data?.data ?? [];
  const total = courses.data?.total ?? 0;
  const lastPage = Math.max(1, Math.ceil(total / (courses.data?.limit ?? 1)));
  // A delete emptied the last page, or the address named a page past the end: show the last one there is.
  useEffect(() => {
    if (courses.data && !courses.isPlaceholderData && !list.length && params.page > lastPage) setPage(lastPage);
  }, [courses.data, courses.isPlaceholderData, list.length, params.page, lastPage, setPage]);

  const empty = filtering ? (
    <EmptyState title={CONTENT_MSG.notFoundTitle} hint={CONTENT_MSG.notFoundHint} />
  ) : author ? (
    <EmptyState
      title={CONTENT_MSG.emptyTitle}
      hint={CONTENT_MSG.emptyStaffHint}
      action={<Button onClick={() => navigate(paths.newCourse())}>{CONTENT_MSG.createFirstCourse}</Button>}
    />
  ) : (
    <EmptyState title={CONTENT_MSG.emptyTitle} hint={CONTENT_MSG.emptyLearner} />
  );

  return (
    <Page data-mf="mf_courses">
      <Header>
        <PageHeader as="div" $gap={16}>
          <h1>Курсы</h1>
          {author && (
            <Row>
              <Button
                type="button"
                $variant="secondary"
                aria-haspopup="dialog"
                onPointerEnter={() => void loadBuilder()}
                onFocus={() => void loadBuilder()}
                onClick={() => setBuilding(true)}
              >
                <SparkIcon />
                Создать с ИИ
              </Button>
              <Button onClick={() => navigate(paths.newCourse())}>{CONTENT_MSG.createCourse}</Button>
            </Row>
          )}
        </PageHeader>
        <Row role="search" $gap={12}>
          <SearchInput
            type="search"
            placeholder={CONTENT_MSG.search}
            aria-label="Поиск курсов"
            value={params.search}
            onChange={(e) => setParams({ search: e.target.value })}
          />
          {author && (
            <FilterSelect
              aria-label="Фильтр по статусу"
              value={params.status}
              onChange={(e) => setParams({ status: e.target.value as CourseStatus | 'all' })}
            >
              {STATUS_OPTIONS.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </FilterSelect>
          )}
          <FilterSelect
            aria-label="Показать курсы"
            value={params.filter}
            onChange={(e) => setParams({ filter: e.target.value as CourseListView })}
          >
            {(studies ? [...FILTER_OPTIONS, ASSIGNED_OPTION] : FILTER_OPTIONS).map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </FilterSelect>
          <ViewToggle role="group" aria-label="Вид списка">
            {VIEWS.map(({ mode, label, Icon }) => (
              <Button
                key={mode}
                type="button"
                $variant={view === mode ? 'secondary' : 'ghost'}
                $size="icon"
                aria-pressed={view === mode}
                aria-label={label}
                title={label}
                onClick={() => setView(mode)}
              >
                <Icon />
              </Button>
            ))}
          </ViewToggle>
        </Row>
      </Header>

      {assigned ? (
        <AssignedCourses page={params.page} onPage={setPage} />
      ) : (
        <PagedList query={courses} failed={CONTENT_MSG.loadFailed} empty={empty} onPage={setPage}>
          {(rows, busy) => (
            <Cards $view={view} aria-label="Список курсов" aria-busy={busy} data-view={view}>
              {rows.map((course) => (
                <li key={course.id}>
                  <CourseCard
                    course={course}
                    view={view}
                    canAuthor={author && !!user && canReadCourseAsAuthor(user, course)}
                    canEdit={!!user && canEditCourse(user, course)}
                    favoriteBusy={favoritesInFlight.has(course.id)}
                    copyBusy={copy.isPending && copy.variables?.id === course.id}
                    onOpen={(c) => void open(c)}
                    onToggleFavorite={(c) => favorite.mutate(c)}
                    onCopy={(c) => copy.mutate(c)}
                    onDelete={setToDelete}
                  />
                </li>
              ))}
            </Cards>
          )}
        </PagedList>
      )}

      {building && (
        <Suspense fallback={null}>
          <CourseBuilderDialog onClose={() => setBuilding(false)} />
        </Suspense>
      )}

      {toDelete && (
        <ConfirmDialog
          title="Удаление курса"
          message={CONTENT_MSG.confirmDeleteCourse.replace('{title}', toDelete.title)}
          confirmLabel="Удалить"
          busy={remove.isPending}
          onConfirm={() => remove.mutate(toDelete)}
          onCancel={() => setToDelete(null)}
        />
      )}
    </Page>
  );
}

const Header = styled.header`
  display: grid;
  gap: 16px;
  margin-bottom: 24px;
`;
const SearchInput = styled(Input)`
  flex: 1 1 260px;
  width: auto;
`;
const FilterSelect = styled(Select)`
  flex: 0 1 200px;
  width: auto;
`;
const ViewToggle = styled.div`
  display: inline-flex;
  gap: 4px;
  padding: 2px;
  border-radius: ${({ theme }) => theme.radius};
  border: 1px solid ${({ theme }) => theme.colors.border};
  button {
    height: 34px;
    width: 34px;
  }
`;
const Cards = styled.ul<{ $view: ViewMode }>`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: 16px;
  grid-template-columns: ${({ $view }) => ($view === 'grid' ? 'repeat(auto-fill, minmax(280px, 1fr))' : '1fr')};
`;
