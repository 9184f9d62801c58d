import { useMutation, useQueryClient } from '@tanstack/react-query';
import styled from 'styled-components';
import type { CourseCreateInput } from '@portal/contracts';
import { Button, Card, Page } from '@portal/ui';
import { ApiError, errorMessage, navigate, paths } from '@portal/web-core';
import { readAgain } from '@portal/web-core/query';
import { COURSES_KEY, createCourse } from '../../api/courses';
import { CourseForm } from '../../components/CourseForm';
import { BackIcon } from '../../components/Icons';

/**
 * /courses/create: the new-course screen. Cancel and back lead to /courses; a created
 * course opens in its editor, where the curator goes on (the list would only send them there).
 */
export function NewCourse() {
  const queryClient = useQueryClient();
  const toList = () => navigate(paths.courses());
  const create = useMutation({
    mutationFn: (input: CourseCreateInput) => createCourse(input),
    onSuccess: async (course) => {
      await readAgain(queryClient, COURSES_KEY);
      navigate(paths.editor(course.id));
    },
  });
  const error = create.error
    ? { message: errorMessage(create.error), field: create.error instanceof ApiError ? create.error.field : undefined }
    : null;

  return (
    <Page data-mf="mf_courses">
      <Narrow>
        <Button type="button" $variant="ghost" onClick={toList}>
          <BackIcon /> К списку курсов
        </Button>
        <h1>Создать новый курс</h1>
        <Card>
          <CourseForm
            submitLabel="Создать курс"
            busy={create.isPending}
            error={error}
            onSubmit={(input) => create.mutate(input)}
            onCancel={toList}
          />
        </Card>
      </Narrow>
    </Page>
  );
}

const Narrow = styled.div`
  max-width: 720px;
  margin: 0 auto;
  display: grid;
  gap: 16px;
  justify-items: start;
  h1 {
    margin: 0;
  }
  > div {
    width: 100%;
  }
`;
