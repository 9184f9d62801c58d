import { ANALYSIS_MSG, QUIZ_MSG } from '@portal/contracts';
import { defineRoute } from '@portal/service-kit';
import { analyzeQuizzes } from '../../policies/results';
import { analysisParams, quizAnalysisSchema } from './schema';

/** «Анализ вопросов» of one quiz, from its latest final attempts. */
export const analyzeQuiz = defineRoute({
  method: 'GET',
  path: '/api/results/analysis/:quizId',
  operationId: 'analyzeQuiz',
  summary: 'Анализ вопросов квиза',
  description:
    'Гистограмма баллов и по каждому вопросу: попытки, трудность (% баллов), различающая сила (корреляция с остальным тестом), выбор вариантов, медиана времени и флаги. Считается по последним завершённым попыткам (не больше sampleLimit). ADMIN — любой квиз; куратор — квизы своих курсов (автор или соавтор).',
  access: analyzeQuizzes,
  params: analysisParams,
  ok: { status: 200, description: 'Анализ', schema: quizAnalysisSchema },
  also: {
    404: { description: 'Квиза нет, или он недоступен', example: QUIZ_MSG.quizNotFound },
    403: { description: 'Куратор не автор курса этого квиза', example: ANALYSIS_MSG.notCourseCurator },
  },
});
