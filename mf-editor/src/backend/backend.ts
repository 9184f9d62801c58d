import { createContext, useContext } from 'react';
import type {
  BlockImportInput,
  BlockRecord,
  BlockSummary,
  ContentBlock,
  Course,
  CourseOutline,
  GenerationConfigInfo,
  GenerationJob,
  RegenerateInput,
  CourseStatus,
  CourseSummary,
  LessonStatus,
  Quiz,
  QuizCreateInput,
  Page,
  QuizSummary,
  ScormAttemptSummary,
  ScormLessonAnalysis,
  ScormPackageSummary,
  UploadAccept,
  UploadedFile,
} from '@portal/contracts';
import type { ReorderItem } from '../model/structure';

export interface LessonCreate {
  courseId: string;
  moduleId: string;
  title?: string;
  description?: string;
  status?: LessonStatus;
  content?: ContentBlock[];
  position?: number;
}

/** Regeneration of one module, lesson or quiz: a proposal that is accepted or rejected. */
export interface GenerationBackend {
  /** GET /generations/config: whether a model or the built-in template will answer. */
  config(): Promise<GenerationConfigInfo>;
  /** POST /generations/regenerate: starts a job (202). */
  regenerate(input: RegenerateInput): Promise<GenerationJob>;
  /** GET /generations/{id}: polled while the job runs. */
  getJob(id: string): Promise<GenerationJob>;
  /** DELETE /generations/{id}: cancels a running job or rejects its proposal. */
  discard(id: string): Promise<GenerationJob>;
  /** POST /generations/{id}/accept: applies the proposal to its node and answers the updated course. */
  accept(id: string): Promise<Course>;
}

/**
 * Everything the editors read and write. The portal's editors use the API; the demo routes use a
 * copy of sample data in memory and never write to the server.
 */
export interface EditorBackend {
  readonly demo: boolean;
  /** The course and its structure without lesson content; a lesson's blocks come from getBlock. */
  loadOutline(id: string): Promise<CourseOutline>;
  /** The course's fields as stored now (conflict resolution), taking only the course's own version. */
  getCourse(id: string): Promise<CourseOutline>;
  /** POST /courses/{id}/copy: a deep copy of the stored course, titled '<title> (копия)', as a draft. */
  copyCourse(id: string): Promise<Course>;
  listCourses(): Promise<CourseSummary[]>;
  updateCourse(
    id: string,
    patch: { title?: string; description?: string; price?: number; duration?: number; level?: string; status?: CourseStatus },
  ): Promise<{ id: string }>;
  /** A module, or a lesson with its blocks (in `content`). */
  getBlock(id: string): Promise<BlockRecord>;
  createModule(courseId: string, title: string, position: number): Promise<BlockRecord>;
  createLesson(input: LessonCreate): Promise<BlockRecord>;
  updateBlock(
    id: string,
    patch: { title?: string; description?: string; status?: LessonStatus; content?: ContentBlock[] },
  ): Promise<BlockSummary>;
  deleteBlock(id: string): Promise<void>;
  copyLesson(id: string): Promise<BlockRecord>;
  reorder(items: ReorderItem[]): Promise<BlockSummary[]>;
  importLessons(input: BlockImportInput): Promise<BlockRecord[]>;
  listQuizzes(search?: string): Promise<QuizSummary[]>;
  getQuiz(id: string): Promise<Quiz>;
  /**
   * Creates (id null) or updates a quiz. An update is based on `version` when given (the version the
   * quiz form was opened on), else on the last version read here.
   */
  saveQuiz(id: string | null, input: QuizCreateInput, version?: number): Promise<Quiz>;
  /** Reports the percent sent; the signal cancels. */
  upload(file: File, accept: UploadAccept, progress?: UploadProgress): Promise<UploadedFile>;
  /** Absent on the demo routes: sample data is never sent to a generator. */
  readonly generations?: GenerationBackend;
  /** Absent on the demo routes: a package is checked and kept by the server. */
  readonly scorm?: ScormBackend;
}

/** SCORM packages of a course (content service) and the learners' attempts at them (progress service). */
export interface ScormBackend {
  /**
   * POST /scorm/packages: a .zip checked before anything is kept; `lesson` keeps the package for a
   * block, `course` also builds the course's modules and lessons from its organization.
   */
  upload(file: File, courseId: string, mode: 'lesson' | 'course', progress?: UploadProgress): Promise<ScormPackageSummary>;
  /** GET /scorm/attempts?courseId=: a page of the learners' attempts at the course's SCORM lessons, latest first. */
  attempts(courseId: string, page: number): Promise<Page<ScormAttemptSummary>>;
  /** GET /scorm/attempts/analysis: the questions a lesson's package reported, with how often they were answered right. */
  analysis(courseId: string, lessonId: string): Promise<ScormLessonAnalysis>;
}

export interface UploadProgress {
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
}

export const BackendContext = createContext<EditorBackend | null>(null);

export function useBackend(): EditorBackend {
  const backend = useContext(BackendContext);
  if (!backend) throw new Error('useBackend must be used within a BackendContext provider');
  return backend;
}
