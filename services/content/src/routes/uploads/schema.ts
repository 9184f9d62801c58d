import { z } from 'zod';
import type { UploadedFile } from '@portal/contracts';
import { conforms } from '@portal/service-kit';

/** A stored upload as its answer shows it: where to read it back, and what was received. */
export const uploadedFileSchema = conforms<UploadedFile>().as(
  z
    .object({
      url: z.string().meta({ example: '/api/files/0b6f…-лекция.mp4' }),
      name: z.string(),
      originalName: z.string().meta({ example: 'лекция.mp4' }),
      size: z.number().int(),
      mimeType: z.string().meta({ example: 'video/mp4' }),
    })
    .meta({ id: 'UploadedFile' }),
);
