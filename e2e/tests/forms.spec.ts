import { truncateSync, writeFileSync } from 'node:fs';
import { expect, test, type APIRequestContext, type Locator } from '@playwright/test';
import { expectAccessible, signIn, watchConsole } from './helpers';

const CURATOR = { email: 'curator@portal.local', password: 'Portal-Kur-2026' };
const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** A course of one module and one lesson, made over the API by the curator. */
async function arrangeLesson(request: APIRequestContext): Promise<{ courseId: string; lesson: string }> {
  const login = await request.post('/api/auth/login', { data: CURATOR });
  const headers = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
  const tag = Date.now().toString(36);
  const course = await request.post('/api/courses', { headers, data: { title: `Курс загрузок ${tag}` } });
  const courseId = ((await course.json()) as { id: string }).id;
  const mod = await request.post('/api/blocks', { headers, data: { type: 'MODULE', courseId, title: 'Модуль' } });
  const moduleId = ((await mod.json()) as { id: string }).id;
  const lesson = `Урок загрузок ${tag}`;
  expect((await request.post('/api/blocks', { headers, data: { courseId, moduleId, title: lesson } })).status()).toBe(201);
  return { courseId, lesson };
}

/** Drops a file onto an element as a person dragging it from the desktop would. */
async function dropFile(target: Locator, file: { name: string; type: string; bytes: Buffer }) {
  await target.evaluate(
    (el, f) => {
      const data = new DataTransfer();
      data.items.add(new File([Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0))], f.name, { type: f.type }));
      el.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
      el.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    },
    { name: file.name, type: file.type, base64: file.bytes.toString('base64') },
  );
}

test('an upload shows its progress in percent and can be cancelled; a wrong or too large file is refused in Russian before sending', async ({
  page,
  request,
}) => {
  const errors = watchConsole(page);
  const { courseId, lesson } = await arrangeLesson(request);
  await signIn(page, CURATOR.email, CURATOR.password, `/editor/${courseId}`);
  await page.getByRole('button', { name: lesson, exact: true }).click();
  await page.getByRole('button', { name: '+ Изображение' }).click();
  const image = page.getByRole('region', { name: 'Свойства блока «Изображение №1»' });
  const input = image.getByLabel('Загрузить изображение');
  const address = image.getByLabel('Адрес изображения');

  // Type and size are said at once, and nothing is sent.
  const dropZone = image.getByTestId('drop-zone');
  await dropFile(dropZone, { name: 'отчёт.txt', type: 'text/plain', bytes: Buffer.from('не картинка') });
  await expect(image.getByRole('alert')).toHaveText(
    'Файл «отчёт.txt» не подходит: нужно изображение (PNG, JPEG, GIF, WebP или SVG)',
  );
  // Playwright hands over buffers up to 50 MB only: the large one is a (sparse) file on disk.
  const huge = test.info().outputPath('огромная.png');
  writeFileSync(huge, '');
  truncateSync(huge, 51 * 1024 * 1024);
  await input.setInputFiles(huge);
  await expect(image.getByRole('alert')).toHaveText('Файл «огромная.png» весит 51,00 МБ, а загрузить можно не больше 50 МБ');
  await expect(address).toHaveValue('');

  // A slow line: the bar counts up in percent, and «Отменить загрузку» stops it with nothing kept.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: 256 * 1024,
  });
  await input.setInputFiles({ name: 'большая.png', mimeType: 'image/png', buffer: Buffer.alloc(3 * 1024 * 1024, 1) });
  const bar = image.getByRole('progressbar', { name: 'Загрузить изображение: отправлено' });
  await expect(bar).toBeVisible();
  await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow'))).toBeGreaterThan(0);
  expect(Number(await bar.getAttribute('aria-valuenow'))).toBeLessThan(100);
  await expectAccessible(page, 'the editor with an upload running');
  await image.getByRole('button', { name: 'Отменить загрузку' }).click();
  await expect(bar).toBeHidden();
  await expect(image.getByRole('alert')).toHaveText('Загрузка отменена');
  await expect(address).toHaveValue('');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });

  // A picture dropped onto the block is uploaded into it.
  await dropFile(dropZone, { name: 'схема.png', type: 'image/png', bytes: PNG_1X1 });
  await expect(address).toHaveValue(/^\/api\/files\/[0-9a-f-]+\.png$/);
  await expect(image.getByRole('img', { name: 'схема' })).toBeVisible();
  expect(errors).toEqual([]);
});
