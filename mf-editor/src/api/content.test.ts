import { MSG, type BlockRecord } from '@portal/contracts';
import { ApiError, type RequestOptions } from '@portal/web-core';
import { createApiBackend, type ApiCall } from './content';

/**
 * The content service's rule for an edit, in memory: it must name the version it is based on (428
 * «Укажите версию…» without one, 412 when stale), and each write moves the version on by one.
 */
function contentServer() {
  const blocks = new Map<string, BlockRecord>();
  const edits: Array<{ path: string; version: unknown }> = [];
  let next = 0;
  const lesson = (fields: Partial<BlockRecord>): BlockRecord => {
    const record = {
      id: `l${++next}`,
      type: 'LESSON',
      title: 'Урок',
      content: '[]',
      description: '',
      courseId: 'c1',
      moduleId: 'm1',
      position: next,
      status: 'draft',
      version: 0,
      createdAt: '2026-12-01T10:00:00.000Z',
      updatedAt: '2026-12-01T10:00:00.000Z',
      ...fields,
    } as BlockRecord;
    blocks.set(record.id, record);
    return structuredClone(record);
  };
  const call = async (path: string, { method = 'GET', body }: RequestOptions = {}): Promise<unknown> => {
    if (method === 'POST' && path === '/blocks/import') {
      const { lessonIds } = body as { lessonIds: string[] };
      return lessonIds.map((from) => lesson({ title: `Копия ${from}` }));
    }
    const [, , id] = path.split('/');
    const stored = blocks.get(id);
    if (!stored) throw new ApiError('Не найдено', 404);
    if (method === 'GET') return structuredClone(stored);
    const { version, ...patch } = body as { version?: number };
    edits.push({ path, version });
    if (version === undefined) throw new ApiError(MSG.versionRequired, 428);
    if (version !== stored.version) throw new ApiError(MSG.staleDocument, 412);
    Object.assign(stored, patch, { version: stored.version + 1 });
    return structuredClone(stored);
  };
  return { blocks, edits, lesson, author: () => createApiBackend(call as ApiCall) };
}

describe('the editor’s writes name the version they are based on', () => {
  it('a lesson just imported is renamed based on the version the import answered, without being opened first', async () => {
    const server = contentServer();
    const author = server.author();
    const [imported] = await author.importLessons({ courseId: 'c1', moduleId: 'm1', lessonIds: ['другой-урок'] });

    const renamed = await author.updateBlock(imported.id, { title: 'Переименован после импорта' });

    expect(server.edits).toEqual([{ path: `/blocks/${imported.id}`, version: 0 }]);
    expect(renamed).toMatchObject({ title: 'Переименован после импорта', version: 1 });
    expect(server.blocks.get(imported.id)).toMatchObject({ title: 'Переименован после импорта', version: 1 });
  });

  it('a lesson read and saved twice sends each time the version the last answer named', async () => {
    const server = contentServer();
    const { id } = server.lesson({ title: 'Исходный' });
    const author = server.author();
    await author.getBlock(id);

    await author.updateBlock(id, { title: 'Первая правка' });
    await author.updateBlock(id, { title: 'Вторая правка' });

    expect(server.edits.map((e) => e.version)).toEqual([0, 1]);
    expect(server.blocks.get(id)).toMatchObject({ title: 'Вторая правка', version: 2 });
  });
});
