import { z } from 'zod';
import { BLOCK_RECORD_TYPES, type BlockRecord, type BlockSummary } from '@portal/contracts';
import { conforms } from '@portal/service-kit';
import { courseStatus, id, versionedRecord } from '../courses/schema';

const blockShape = {
  id,
  type: z.enum(BLOCK_RECORD_TYPES),
  title: z.string().meta({ example: 'урок_1' }),
  content: z.string().meta({ description: 'Модуль: описание. Урок: JSON-строка списка блоков содержимого' }),
  description: z.string(),
  courseId: z.string(),
  moduleId: z.string().nullable(),
  position: z.number().int(),
  status: courseStatus,
  ...versionedRecord,
};
export const blockRecordSchema = conforms<BlockRecord>().as(z.object(blockShape).meta({ id: 'BlockRecord' }));

const { content: _content, description: _description, ...summaryShape } = blockShape;
export const blockSummarySchema = conforms<BlockSummary>().as(
  z
    .object({
      ...summaryShape,
      description: z.string().optional(),
      blocksCount: z.number().int().optional(),
      hasQuiz: z.boolean().optional(),
      hasScorm: z.boolean().optional(),
    })
    .meta({ id: 'BlockSummary' }),
);

/** Path parameters: the id of a module or a lesson (any string: a malformed one is a block that does not exist, 404). */
export const blockParams = z.object({
  id: z.string().meta({ description: 'Идентификатор модуля или урока', example: '6743a1f0c2b5e80012ab34cd' }),
});
