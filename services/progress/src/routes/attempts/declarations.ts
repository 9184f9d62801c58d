import { PROGRESS_MSG, attemptAnswersSaveSchema } from '@portal/contracts';
import { defineRoute } from '@portal/service-kit';
import { ownAttemptAnswers } from '../../policies/attempts';
import { attemptAnswersSavedSchema, attemptParams } from './schema';

/** The answers given so far, kept on the server as the learner goes (docs/decisions/095). */
export const saveAttemptAnswers = defineRoute({
  method: 'PUT',
  path: '/api/attempts/:id/answers',
  operationId: 'saveAttemptAnswers',
  summary: 'Сохранить ответы незавершённой попытки',
  description:
    'Ответы, данные до сих пор (каждый раз все), заменяют сохранённые раньше. Ничего не проверяется и не сообщается: оценка — при отправке или по истечении времени, по сохранённым ответам. Только своя попытка, пока она не завершена и не вышло время.',
  access: ownAttemptAnswers,
  params: attemptParams,
  body: attemptAnswersSaveSchema,
  example: { answers: [{ questionId: 'q1', answer: 2, timeSpent: 14 }] },
  ok: { status: 200, description: 'Ответы сохранены', schema: attemptAnswersSavedSchema },
  also: {
    404: { description: 'Попытки нет (или она чужая)', example: PROGRESS_MSG.attemptNotFound },
    409: { description: 'Попытка уже завершена, или её время вышло', example: PROGRESS_MSG.answersAttemptClosed },
  },
});
