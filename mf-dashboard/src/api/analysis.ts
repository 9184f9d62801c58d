import type { QuizAnalysisReport } from '@portal/contracts';
import { apiRequest } from '@portal/web-core';

export const analysisKey = (quizId: string) => ['analysis', quizId] as const;

export const fetchQuizAnalysis = (quizId: string, signal?: AbortSignal) =>
  apiRequest<QuizAnalysisReport>(`/results/analysis/${encodeURIComponent(quizId)}`, { signal });
