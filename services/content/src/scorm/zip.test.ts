import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BAD_PACKAGES, singleScoPackage } from '../../../../packages/system-tests/src/scorm/packages';
import { checkPackage } from './validate';
import { isUnsafePath } from './zip';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'scorm-zip-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const onDisk = async (name: string, bytes: Buffer) => {
  const file = path.join(dir, name);
  await writeFile(file, bytes);
  return file;
};

describe('checking a package before it is stored', () => {
  it('counts the real bytes: a header that lies about an entry’s size is refused as a bomb', async () => {
    const lying = BAD_PACKAGES.find((p) => p.name.includes('lie'))!;
    await expect(checkPackage(await onDisk('lying.zip', await lying.build()))).rejects.toMatchObject({
      statusCode: 400,
      message: expect.stringContaining('media/filler.bin'),
    });
  });

  it('holds the unpacked total to its limit as it inflates (413)', async () => {
    const file = await onDisk('small.zip', await singleScoPackage());
    await expect(
      checkPackage(file, { maxFiles: 100, maxUnpackedBytes: 100, maxCompressionRatio: 100, maxManifestBytes: 1024 * 1024 }),
    ).rejects.toMatchObject({ statusCode: 413, message: 'Распакованный пакет занимает больше 0 МБ' });
  });

  it('reads a good package: its version, SCO and unpacked bytes', async () => {
    const checked = await checkPackage(await onDisk('good.zip', await singleScoPackage('Урок')));
    checked.zip.close();
    expect(checked.manifest).toMatchObject({ version: '1.2', edition: '1.2', title: 'Урок' });
    expect(checked.manifest.scos).toEqual([{ id: 'SCO_ONE', title: 'Урок', launch: 'index.html', path: [] }]);
    expect(checked.bytes).toBeGreaterThan(1000);
  });

  it('tells unsafe entry paths', () => {
    expect(['../a.html', 'a/../../b', '/etc/passwd', '\\\\server\\x', 'C:/win.ini', 'a\\..\\b'].every(isUnsafePath)).toBe(true);
    expect(['index.html', 'shared/launchpage.html', 'a..b/c.html', '..hidden'].some(isUnsafePath)).toBe(false);
  });
});
