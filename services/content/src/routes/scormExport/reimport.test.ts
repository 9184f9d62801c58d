import JSZip from 'jszip';
import type { ScormLaunch, ScormPackageSummary, UploadedFile } from '@portal/contracts';
import { api } from '@portal/devstack/testing';
import { basedOnStored, seedCourse, startContent, type ContentTestBed } from '../../testing';

/** An exported course comes back: the portal's own SCORM upload takes the package and serves it to a learner. */
let bed: ContentTestBed;
beforeAll(async () => {
  bed = await startContent();
});
afterAll(() => bed.close());

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(300, 7)]);
const curator = () => bed.as.CURATOR.token;

async function send(path: string, file: Buffer, name: string, type: string) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(file)], { type }), name);
  const res = await fetch(`${bed.content.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${curator()}` },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as any };
}

async function patchLesson(lessonId: string, blocks: unknown[]) {
  const path = `/api/blocks/${lessonId}`;
  const answer = await api(bed.content.url, 'PATCH', path, {
    token: curator(),
    body: await basedOnStored(bed, path, { content: blocks }),
  });
  expect(answer.status).toBe(200);
}

it('the exported zip passes the upload’s checks as SCORM 1.2 with one SCO, and a learner is served its page, script and files', async () => {
  const source = await seedCourse(bed, { title: 'Курс для выгрузки', modules: [1] });
  const image = (await send('/api/upload/file', PNG, 'рисунок.png', 'image/png')).body as UploadedFile;
  await patchLesson(source.modules[0].lessons[0].id, [
    { type: 'heading', content: { text: 'Первый урок' } },
    { type: 'image', content: { src: image.url, alt: 'Рисунок' } },
  ]);
  const exported = await fetch(`${bed.content.url}/api/courses/${source.id}/export/scorm`, {
    headers: { authorization: `Bearer ${curator()}` },
  });
  expect(exported.status).toBe(200);
  const zip = Buffer.from(await exported.arrayBuffer());

  const target = await seedCourse(bed, { modules: [1], status: 'published' });
  const uploaded = await send(`/api/scorm/packages?courseId=${target.id}&mode=lesson`, zip, 'курс.zip', 'application/zip');
  expect(uploaded.status).toBe(201);
  const pkg = uploaded.body as ScormPackageSummary;
  expect(pkg).toMatchObject({ version: '1.2', edition: '1.2' });
  expect(pkg.scos).toEqual([expect.objectContaining({ title: 'Курс для выгрузки', launch: 'index.html' })]);

  const lesson = target.modules[0].lessons[0];
  await patchLesson(lesson.id, [{ type: 'scorm', content: { packageId: pkg.id, scoId: pkg.scos[0].id, version: pkg.version } }]);
  const launch = await api<ScormLaunch>(bed.content.url, 'POST', '/api/scorm/launch', {
    token: bed.as.CLIENT.token,
    body: { courseId: target.id, lessonId: lesson.id },
  });
  expect(launch.status).toBe(200);
  const base = launch.body.url.slice(0, -'index.html'.length);
  const page = await fetch(`${bed.content.url}${launch.body.url}`);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('<h2>Первый урок</h2>');
  const inZip = await JSZip.loadAsync(zip);
  for (const file of ['player.js', 'player.css', `files/${image.name}`]) {
    const served = await fetch(`${bed.content.url}${base}${file}`);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(Buffer.from(await inZip.file(file)!.async('uint8array')))).toBe(true);
  }
});
