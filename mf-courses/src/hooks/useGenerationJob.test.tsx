/** @jest-environment jsdom */
/** The «Создать с ИИ» job hook: starting, polling to the end, cancelling, a cancel that came too late, leaving. */
import type { ReactNode } from 'react';
import { act, renderHook, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { GENERATION_MSG, type Course, type GenerateCourseRequest } from '@portal/contracts';
import { ApiError } from '@portal/web-core';
import * as api from '../api/generation';
import { draftReadyText } from '../model/courseBuilder';
import { generationJob } from '../model/generationJob.fixture';
import { useGenerationJob } from './useGenerationJob';

jest.mock('../api/generation', () => ({
  ...jest.requireActual('../api/generation'),
  startCourseGeneration: jest.fn(),
  fetchGenerationJob: jest.fn(),
  cancelGeneration: jest.fn(),
  fetchCourse: jest.fn(),
}));

const start = jest.mocked(api.startCourseGeneration);
const fetchJob = jest.mocked(api.fetchGenerationJob);
const cancel = jest.mocked(api.cancelGeneration);
const fetchCourse = jest.mocked(api.fetchCourse);

const request: GenerateCourseRequest = {
  topic: 'Переговоры',
  audience: 'Менеджеры по продажам',
  goals: ['Готовить повестку'],
  level: 'Начальный',
  withQuizzes: true,
};

const job = generationJob;
const succeeded = job({ status: 'succeeded', stage: 'done', progress: 100, courseId: 'c1' });

function renderJob() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  return renderHook(() => useGenerationJob(), { wrapper });
}

beforeEach(() => jest.resetAllMocks());

describe('the generation job of «Создать с ИИ»', () => {
  it('polls a started job until it succeeds, then summarizes the draft', async () => {
    start.mockResolvedValue(job());
    fetchJob.mockResolvedValue(succeeded);
    fetchCourse.mockResolvedValue({ modules: [] } as unknown as Course);
    const { result, unmount } = renderJob();

    await act(() => result.current.start(request));

    await waitFor(() => expect(result.current.phase).toMatchObject({ step: 'succeeded', courseId: 'c1', late: false }));
    await waitFor(() => expect(result.current.summary).toBe(draftReadyText({ modules: 0, lessons: 0, quizzes: 0 })));
    expect(start).toHaveBeenCalledWith(request);
    expect(fetchJob).toHaveBeenCalledWith('j1', expect.anything());
    unmount();
  });

  it('goes back to the form with the reason when the job cannot start', async () => {
    start.mockRejectedValue(new ApiError('Сервис недоступен', 503));
    const { result, unmount } = renderJob();

    await act(() => result.current.start(request));

    expect(result.current.phase).toEqual({ step: 'form', error: { message: 'Сервис недоступен' } });
    expect(fetchJob).not.toHaveBeenCalled();
    unmount();
  });

  it('keeps the field a refusal names, for the form to show the message beside it', async () => {
    start.mockRejectedValue(new ApiError(GENERATION_MSG.topicRequired, 400, 'topic'));
    const { result, unmount } = renderJob();

    await act(() => result.current.start(request));

    expect(result.current.phase).toEqual({ step: 'form', error: { message: GENERATION_MSG.topicRequired, field: 'topic' } });
    unmount();
  });

  it('shows the kept draft, opening nothing by itself, when the cancel came after the job finished', async () => {
    start.mockResolvedValue(job());
    let finished = false;
    fetchJob.mockImplementation(async () => (finished ? succeeded : job()));
    cancel.mockImplementation(async () => {
      finished = true;
      throw new ApiError(GENERATION_MSG.alreadyFinished, 409);
    });
    fetchCourse.mockResolvedValue({ modules: [] } as unknown as Course);
    const { result, unmount } = renderJob();
    await act(() => result.current.start(request));

    await act(() => result.current.cancel(job()));

    expect(result.current.phase).toMatchObject({ step: 'succeeded', courseId: 'c1', late: true });
    expect(cancel).toHaveBeenCalledWith('j1');
    unmount();
  });

  it('cancels a running job when the author leaves, and lets a cancelled one be started again', async () => {
    start.mockResolvedValue(job());
    fetchJob.mockResolvedValue(job());
    cancel.mockResolvedValue(job({ status: 'cancelled' }));
    const { result, unmount } = renderJob();
    await act(() => result.current.start(request));

    act(() => result.current.discard());
    expect(cancel).toHaveBeenCalledWith('j1');

    await act(() => result.current.cancel(job()));
    expect(result.current.phase).toEqual({ step: 'cancelled', message: GENERATION_MSG.cancelled });
    act(() => result.current.backToForm());
    expect(result.current.phase).toEqual({ step: 'form', error: null });
    unmount();
  });
});
