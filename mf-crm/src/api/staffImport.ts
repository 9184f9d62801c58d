import type { ImportBatchResult, ImportPreview } from '@portal/contracts';
import { apiRequest, downloadFile } from '@portal/web-core';

export const downloadImportTemplate = (format: 'xlsx' | 'csv') =>
  downloadFile('/staff-import/template', `staff-import-template.${format}`, { query: { format } });

/** The file's bytes as base64, read in the browser (the server parses it with exceljs). */
export const fileAsBase64 = (file: File): Promise<string> =>
  new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('Не удалось прочитать файл'));
    reader.readAsDataURL(file);
  });

export const previewImport = async (file: File) =>
  apiRequest<ImportPreview>('/staff-import', {
    method: 'POST',
    body: { fileName: file.name, content: await fileAsBase64(file) },
  });

export const runImportBatch = (id: string, from: number) =>
  apiRequest<ImportBatchResult>(`/staff-import/${encodeURIComponent(id)}/batch`, { method: 'POST', body: { from } });
