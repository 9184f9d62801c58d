import type {
  CandidateLink,
  CandidateLinkCreateInput,
  CandidateLinkCreated,
  CandidateLinkPage,
  CandidateLinkPublic,
  CandidateStartInput,
  CandidateStarted,
  CourseSummary,
  ExportFormat,
  AttemptAnswerInput,
  AttemptAnswersSaved,
  AttemptDetail,
  BlockRecord,
  CourseOutline,
  CourseProgress,
  LessonCompleteResult,
  Quiz,
  QuizCard,
  ResultFilterStatus,
  ResultsPage,
  ReviewInput,
  ReviewPage,
  StartedAttempt,
  UploadedFile,
} from '@portal/contracts';
import { apiRequest, apiResponse } from '@portal/web-core';
import { downloadExport } from '@portal/web-core/lists';

const enc = encodeURIComponent;

/* ------------------------------------------------------------ query keys */

export const outlineKey = (courseId: string) => ['player', 'outline', courseId] as const;
/** Keyed by the version the outline named: a lesson read ahead is used only while it is the stored one. */
export const lessonKey = (lessonId: string, version: string) => ['player', 'lesson', lessonId, version] as const;
export const progressKey = (courseId: string) => ['progress', 'course', courseId] as const;
export const QUIZ_CARDS_KEY = ['attempts', 'quiz'] as const;
export const quizCardKey = (quizId: string) => [...QUIZ_CARDS_KEY, quizId] as const;
export const RESULTS_KEY = ['results'] as const;
export const attemptKey = (id: string) => ['attempt', id] as const;
export const REVIEWS_KEY = ['reviews'] as const;

/* ----------------------------------------------------------------- calls */

/** The course's structure as the learner may see it, without any lesson's blocks (content service). */
export const fetchOutline = (courseId: string, signal?: AbortSignal) =>
  apiRequest<CourseOutline>(`/courses/${enc(courseId)}/outline`, { signal });

/** One lesson with its blocks (in `content`), read when it is opened or read ahead. */
export const fetchLesson = (lessonId: string, signal?: AbortSignal) =>
  apiRequest<BlockRecord>(`/blocks/${enc(lessonId)}`, { signal });

export const fetchCourseProgress = (courseId: string, signal?: AbortSignal) =>
  apiRequest<CourseProgress>(`/progress/course/${enc(courseId)}`, { signal });

/** Kept alive: the lesson shows as completed at once, so a learner may leave or reload before the answer comes. */
export const completeLesson = (courseId: string, lessonId: string) =>
  apiRequest<LessonCompleteResult>(`/progress/lesson/${enc(lessonId)}/complete`, {
    method: 'POST',
    body: { courseId },
    keepalive: true,
  });

/** The whole quiz, answers included: only its authors get it (an author's preview plays it here). */
export const fetchQuizForPreview = (quizId: string, signal?: AbortSignal) =>
  apiRequest<Quiz>(`/quizzes/${enc(quizId)}`, { signal });
export const previewQuizKey = (quizId: string) => ['player', 'preview-quiz', quizId] as const;

export const fetchQuizCard = (quizId: string, signal?: AbortSignal) =>
  apiRequest<QuizCard>(`/attempts/quiz/${enc(quizId)}`, { signal });

export const startAttempt = (input: { quizId: string; courseId: string; lessonId: string }) =>
  apiRequest<StartedAttempt>('/attempts', { method: 'POST', body: input });

export const submitAttempt = (attemptId: string, answers: AttemptAnswerInput[]) =>
  apiRequest<AttemptDetail>(`/attempts/${enc(attemptId)}/submit`, { method: 'POST', body: { answers } });

/** Keeps the answers given so far on the server (docs/decisions/095); `keepalive` when the page is being left. */
export const saveAttemptAnswers = (attemptId: string, answers: AttemptAnswerInput[], keepalive = false) =>
  apiRequest<AttemptAnswersSaved>(`/attempts/${enc(attemptId)}/answers`, { method: 'PUT', body: { answers }, keepalive });

export const fetchAttempt = (id: string, signal?: AbortSignal) => apiRequest<AttemptDetail>(`/attempts/${enc(id)}`, { signal });

export interface ResultsFilters {
  search: string;
  status: ResultFilterStatus | 'all';
  /** '' for every course, and for an open end of the period (days, YYYY-MM-DD). */
  courseId: string;
  from: string;
  to: string;
}
export interface ResultsParams extends ResultsFilters {
  page: number;
}

/** The filters as the server takes them: nothing for «all» and for empty fields. */
const resultsQuery = ({ search, status, courseId, from, to }: ResultsFilters) => ({
  search: search.trim() || undefined,
  status: status === 'all' ? undefined : status,
  courseId: courseId || undefined,
  from: from || undefined,
  to: to || undefined,
});

export const fetchResults = ({ page, ...filters }: ResultsParams, signal?: AbortSignal) =>
  apiRequest<ResultsPage>('/results', { query: { ...resultsQuery(filters), page, limit: 20 }, signal });

/** quiz_results.csv or .xlsx as the server builds it, with the table's filters. */
export const downloadResults = (format: ExportFormat, filters: ResultsFilters) =>
  downloadExport('/results/export', 'results', format, resultsQuery(filters));

/** The courses the results can be narrowed to: those the person sees in the catalogue (the first hundred). */
export const fetchResultCourses = async (signal?: AbortSignal) =>
  (await apiResponse<CourseSummary[]>('/courses', { query: { limit: 100 }, signal })).body;

/**
 * A file given as the answer to a file_upload question of `quizId`: checked and kept like every
 * upload (content service), and read only by the learner, the quiz's course's authors and ADMINs.
 */
export function uploadAnswerFile(file: File, quizId: string): Promise<UploadedFile> {
  const form = new FormData();
  form.append('file', file);
  return apiRequest<UploadedFile>('/upload/answer', { method: 'POST', body: form, query: { quizId } });
}

/** «Проверка ответов»: a page of the attempts whose answers wait for a person (ADMIN, CURATOR). */
export const fetchReviews = (page: number, limit: number, signal?: AbortSignal) =>
  apiRequest<ReviewPage>('/reviews', { query: { page, limit }, signal });

/** A score and a comment for one waiting answer; answers the attempt counted again. */
export const gradeReview = (attemptId: string, questionId: string, input: ReviewInput) =>
  apiRequest<AttemptDetail>(`/reviews/${enc(attemptId)}/${enc(questionId)}`, { method: 'POST', body: input });

/* ------------------------------------------------------- candidate links */

export const CANDIDATE_LINKS_KEY = ['candidate-links'] as const;
export const publicLinkKey = (token: string) => ['candidate-link', 'public', token] as const;
export const EDITABLE_COURSES_KEY = ['candidate-links', 'courses'] as const;

export const fetchCandidateLinks = (page: number, signal?: AbortSignal) =>
  apiRequest<CandidateLinkPage>('/candidate-links', { query: { page, limit: 20 }, signal });

export const createCandidateLink = (input: CandidateLinkCreateInput) =>
  apiRequest<CandidateLinkCreated>('/candidate-links', { method: 'POST', body: input });

export const revokeCandidateLink = (id: string) =>
  apiRequest<CandidateLink>(`/candidate-links/${enc(id)}/revoke`, { method: 'POST' });

/** The published courses a link may lead into (the first hundred, newest first). */
export const fetchPublishedCourses = async (signal?: AbortSignal) =>
  (await apiResponse<CourseSummary[]>('/courses', { query: { status: 'published', limit: 100 }, signal })).body;

export const fetchPublicLink = (token: string, signal?: AbortSignal) =>
  apiRequest<CandidateLinkPublic>(`/candidate-links/public/${enc(token)}`, { signal });

export const startCandidateLink = (token: string, input: CandidateStartInput) =>
  apiRequest<CandidateStarted>(`/candidate-links/public/${enc(token)}/start`, { method: 'POST', body: input });
