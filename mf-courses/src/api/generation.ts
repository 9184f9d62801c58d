import type { Course, GenerateCourseRequest, GenerationConfigInfo, GenerationJob } from '@portal/contracts';
import { apiRequest } from '@portal/web-core';

/** The course builder's calls (content service, behind the gateway at /api). */
export const GENERATION_CONFIG_KEY = ['generations', 'config'] as const;
export const generatedCourseKey = (id: string | null) => ['generations', 'course', id] as const;

export const fetchGenerationConfig = (signal?: AbortSignal) =>
  apiRequest<GenerationConfigInfo>('/generations/config', { signal });
export const startCourseGeneration = (request: GenerateCourseRequest) =>
  apiRequest<GenerationJob>('/courses/generate', { method: 'POST', body: request });
export const fetchGenerationJob = (id: string, signal?: AbortSignal) =>
  apiRequest<GenerationJob>(`/generations/${encodeURIComponent(id)}`, { signal });
/** While running: cancel (nothing kept). Answers the job as it ended. */
export const cancelGeneration = (id: string) =>
  apiRequest<GenerationJob>(`/generations/${encodeURIComponent(id)}`, { method: 'DELETE' });
export const fetchCourse = (id: string, signal?: AbortSignal) =>
  apiRequest<Course>(`/courses/${encodeURIComponent(id)}`, { signal });
