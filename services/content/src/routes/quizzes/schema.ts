import { z } from 'zod';
import {
  playerQuestionSchema,
  questionSchema,
  quizDrawSchema,
  quizSettingsSchema,
  type LearnerQuiz,
  type Quiz,
  type QuizSummary,
} from '@portal/contracts';
import { conforms, isoDateTime } from '@portal/service-kit';

const id = z.string().meta({ example: '6743a1f0c2b5e80012ab34cd' });
/** A record written with optimistic concurrency: its version and when it was made and last changed. */
const versionedRecord = { version: z.number().int(), createdAt: isoDateTime, updatedAt: isoDateTime };

export const quizParams = z.object({
  id: z.string().meta({ description: 'Идентификатор квиза', example: '6743a1f0c2b5e80012ab34cd' }),
});

const quizShape = {
  id,
  title: z.string().meta({ example: 'Итоговый тест' }),
  description: z.string(),
  courseId: z.string().nullable().optional(),
  settings: quizSettingsSchema,
  draws: z.array(quizDrawSchema).meta({ description: 'Вопросы из банка курса, по N на метку в каждой попытке' }),
  ...versionedRecord,
};
export const quizSchema = conforms<Quiz>().as(
  z.object({ ...quizShape, questions: z.array(questionSchema) }).meta({ id: 'Quiz' }),
);

const learnerQuestion = playerQuestionSchema.extend({ order: z.number().int(), points: z.number().int() });
export const learnerQuizSchema = conforms<LearnerQuiz>().as(
  z.object({ ...quizShape, questions: z.array(learnerQuestion) }).meta({
    id: 'LearnerQuiz',
    description: 'Квиз для учащегося: без правильных ответов и пояснений',
  }),
);

export const quizSummarySchema = conforms<QuizSummary>().as(
  z
    .object({
      id,
      title: z.string(),
      description: z.string(),
      courseId: z.string().nullable(),
      questionsCount: z.number().int(),
      settings: quizSettingsSchema,
      draws: z.array(quizDrawSchema),
      ...versionedRecord,
    })
    .meta({ id: 'QuizSummary' }),
);
