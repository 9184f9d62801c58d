import JSZip from 'jszip';

/**
 * SCORM packages the tests build for themselves, in memory: a SCORM 1.2 course of three SCOs in
 * nested item groups that report completion and a score on «Завершить», and every kind of package
 * the portal must refuse. Nothing generated is committed.
 */

export interface TestSco {
  id: string;
  title: string;
  /** The SCO's page, relative to the package root. */
  href: string;
  score: number;
}

/** An item group of the organization: SCOs and groups inside it. */
export interface TestGroup {
  title: string;
  items: Array<TestSco | TestGroup>;
}

const isGroup = (x: TestSco | TestGroup): x is TestGroup => 'items' in x;

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * A SCO page of SCORM 1.2: finds `API` in its window or a parent, initializes on load, and on
 * «Завершить» reports completed with its score, commits and finishes; then it says «Готово».
 */
export function scoPage(sco: Pick<TestSco, 'title' | 'score'>): string {
  return `<!DOCTYPE html>
<html lang="ru">
<head><meta charset="utf-8"><title>${escapeXml(sco.title)}</title></head>
<body>
<h1>${escapeXml(sco.title)}</h1>
<p id="status">Загрузка…</p>
<button id="finish" type="button">Завершить</button>
<script>
  function findAPI(win) {
    for (var i = 0; win && i < 10; i++) {
      if (win.API) return win.API;
      if (win.parent === win) break;
      win = win.parent;
    }
    return null;
  }
  var api = findAPI(window);
  var started = false;
  function start() {
    if (!api) { document.getElementById('status').textContent = 'Нет связи с порталом'; return false; }
    if (!started) started = String(api.LMSInitialize('')) === 'true';
    document.getElementById('status').textContent = started ? 'Урок открыт' : 'Не удалось начать урок';
    return started;
  }
  start();
  document.getElementById('finish').addEventListener('click', function () {
    if (!start()) return;
    api.LMSSetValue('cmi.core.lesson_status', 'completed');
    api.LMSSetValue('cmi.core.score.raw', '${sco.score}');
    api.LMSSetValue('cmi.core.score.min', '0');
    api.LMSSetValue('cmi.core.score.max', '100');
    api.LMSCommit('');
    api.LMSFinish('');
    document.getElementById('status').textContent = 'Готово';
  });
</script>
</body>
</html>
`;
}

function itemXml(item: TestSco | TestGroup, n: { next: number }, indent: string): string {
  if (isGroup(item)) {
    const id = `GROUP_${n.next++}`;
    return `${indent}<item identifier="${id}">\n${indent}  <title>${escapeXml(item.title)}</title>\n${item.items
      .map((child) => itemXml(child, n, `${indent}  `))
      .join('')}${indent}</item>\n`;
  }
  return `${indent}<item identifier="${item.id}" identifierref="RES_${item.id}">\n${indent}  <title>${escapeXml(item.title)}</title>\n${indent}</item>\n`;
}

const scosOf = (items: Array<TestSco | TestGroup>): TestSco[] => items.flatMap((i) => (isGroup(i) ? scosOf(i.items) : [i]));

/** A SCORM 1.2 imsmanifest.xml for an organization of these items. */
export function manifest12(title: string, items: Array<TestSco | TestGroup>, schemaVersion: string | null = '1.2'): string {
  const scos = scosOf(items);
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="PORTAL_TEST_PACKAGE" version="1.0"
  xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <metadata>
    <schema>ADL SCORM</schema>
${schemaVersion === null ? '' : `    <schemaversion>${escapeXml(schemaVersion)}</schemaversion>\n`}  </metadata>
  <organizations default="ORG">
    <organization identifier="ORG">
      <title>${escapeXml(title)}</title>
${items.map((i) => itemXml(i, { next: 1 }, '      ')).join('')}    </organization>
  </organizations>
  <resources>
${scos
  .map(
    (s) => `    <resource identifier="RES_${s.id}" type="webcontent" adlcp:scormtype="sco" href="${escapeXml(s.href)}">
      <file href="${escapeXml(s.href)}"/>
      <file href="shared/style.css"/>
    </resource>
`,
  )
  .join('')}  </resources>
</manifest>
`;
}

/** The multi-SCO course: «Раздел 1» with two SCOs, «Раздел 2» holding «Тема 2.1» with the third. */
export const MULTI_SCO_COURSE: { title: string; items: TestGroup[] } = {
  title: 'Охрана труда: вводный курс',
  items: [
    {
      title: 'Раздел 1. Общие положения',
      items: [
        { id: 'SCO_1', title: 'Урок 1.1. Кто отвечает за безопасность', href: 'sco1/index.html', score: 80 },
        { id: 'SCO_2', title: 'Урок 1.2. Права работника', href: 'sco2/index.html', score: 90 },
      ],
    },
    {
      title: 'Раздел 2. Практика',
      items: [
        {
          title: 'Тема 2.1. Рабочее место',
          items: [{ id: 'SCO_3', title: 'Урок 2.1. Порядок на рабочем месте', href: 'sco3/index.html', score: 100 }],
        },
      ],
    },
  ],
};

const toBuffer = (zip: JSZip, options: Partial<JSZip.JSZipGeneratorOptions<'nodebuffer'>> = {}) =>
  zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', ...options });

/** A SCORM 1.2 package of these items; `edit` changes the archive before it is packed. */
export async function scorm12Package(
  title: string,
  items: Array<TestSco | TestGroup>,
  { schemaVersion = '1.2' as string | null, edit = (_zip: JSZip) => {} } = {},
): Promise<Buffer> {
  const zip = new JSZip();
  zip.file('imsmanifest.xml', manifest12(title, items, schemaVersion));
  zip.file('shared/style.css', 'body { font-family: sans-serif; }\n');
  for (const sco of scosOf(items)) zip.file(sco.href, scoPage(sco));
  edit(zip);
  return toBuffer(zip, { platform: 'UNIX' });
}

/** The three-SCO SCORM 1.2 course. */
export const multiScoPackage = () => scorm12Package(MULTI_SCO_COURSE.title, MULTI_SCO_COURSE.items);

/** One SCO, no groups: a lesson's package. */
export const singleScoPackage = (title = 'Одностраничный урок') =>
  scorm12Package(title, [{ id: 'SCO_ONE', title, href: 'index.html', score: 75 }]);

/**
 * A zip whose entry `name` says, in both its headers, that it unpacks to `claimed` bytes, whatever
 * it really holds: a bomb that its declared sizes would not give away.
 */
export function withLyingSize(zip: Buffer, name: string, claimed: number): Buffer {
  const out = Buffer.from(zip);
  const end = out.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let at = out.readUInt32LE(end + 16);
  for (let i = 0; i < out.readUInt16LE(end + 10); i++) {
    const nameLength = out.readUInt16LE(at + 28);
    const next = at + 46 + nameLength + out.readUInt16LE(at + 30) + out.readUInt16LE(at + 32);
    if (out.toString('utf8', at + 46, at + 46 + nameLength) === name) {
      out.writeUInt32LE(claimed, at + 24);
      out.writeUInt32LE(claimed, out.readUInt32LE(at + 42) + 22);
    }
    at = next;
  }
  return out;
}

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

/** A package the portal must refuse, and how: its status and the start of its Russian message. */
export interface BadPackage {
  name: string;
  status: 400 | 413;
  /** A fragment of the message the refusal carries. */
  message: string;
  build(): Promise<Buffer>;
}

const one = (title = 'Урок') => [{ id: 'SCO_ONE', title, href: 'index.html', score: 50 }];

export const BAD_PACKAGES: BadPackage[] = [
  {
    name: 'no manifest',
    status: 400,
    message: 'В корне архива нет файла imsmanifest.xml',
    build: () => scorm12Package('Без манифеста', one(), { edit: (z) => void z.remove('imsmanifest.xml') }),
  },
  {
    name: 'manifest in a subfolder',
    status: 400,
    message: 'лежит во вложенной папке «course»',
    build: async () => {
      const inner = await JSZip.loadAsync(await scorm12Package('В папке', one()));
      const zip = new JSZip();
      for (const [name, file] of Object.entries(inner.files))
        if (!file.dir) zip.file(`course/${name}`, await file.async('nodebuffer'));
      return toBuffer(zip);
    },
  },
  {
    name: 'a missing launch file',
    status: 400,
    message: 'В архиве нет файла «index.html»',
    build: () => scorm12Package('Без страницы', one(), { edit: (z) => void z.remove('index.html') }),
  },
  {
    name: 'a ../ path',
    status: 400,
    message: 'недопустимый путь «../',
    build: () => scorm12Package('Выход из папки', one(), { edit: (z) => void z.file('../outside.html', '<p>вне пакета</p>') }),
  },
  {
    name: 'an absolute path',
    status: 400,
    message: 'недопустимый путь «/etc/',
    build: () => scorm12Package('Абсолютный путь', one(), { edit: (z) => void z.file('/etc/portal.html', '<p>x</p>') }),
  },
  {
    name: 'a link entry',
    status: 400,
    message: 'символическая ссылка «secret»',
    build: () =>
      scorm12Package('Со ссылкой', one(), {
        edit: (z) => void z.file('secret', '/etc/passwd', { unixPermissions: 0o120777 }),
      }),
  },
  {
    name: 'a zip bomb',
    status: 400,
    message: 'Архив сжат подозрительно сильно (файл «media/filler.bin»)',
    build: () => scorm12Package('Бомба', one(), { edit: (z) => void z.file('media/filler.bin', Buffer.alloc(64 * 1024 * 1024)) }),
  },
  {
    name: 'a zip bomb whose headers lie about its size',
    status: 400,
    message: 'Архив сжат подозрительно сильно (файл «media/filler.bin»)',
    build: async () =>
      withLyingSize(
        await scorm12Package('Лживая бомба', one(), {
          edit: (z) => void z.file('media/filler.bin', Buffer.alloc(16 * 1024 * 1024)),
        }),
        'media/filler.bin',
        100_000,
      ),
  },
  {
    name: '20,000 files',
    status: 400,
    message: 'файлов, а допускается не больше 10000',
    build: () =>
      scorm12Package('Много файлов', one(), {
        edit: (z) => {
          for (let i = 0; i < 20_000; i++) z.file(`assets/f${i}.txt`, '');
        },
      }),
  },
  {
    name: 'a renamed non-zip (a PNG)',
    status: 400,
    message: 'Файл не является zip-архивом',
    build: async () => PNG,
  },
  {
    name: 'a truncated zip',
    status: 400,
    message: 'Архив повреждён или загружен не полностью',
    build: async () => {
      const whole = await scorm12Package('Обрезанный', one());
      return whole.subarray(0, Math.floor(whole.length * 0.6));
    },
  },
  {
    name: 'an unsupported version',
    status: 400,
    message: 'Версия SCORM «1.1» не поддерживается',
    build: () => scorm12Package('Старая версия', one(), { schemaVersion: '1.1' }),
  },
  {
    name: 'an unreadable manifest',
    status: 400,
    message: 'Файл imsmanifest.xml не удалось прочитать',
    build: () =>
      scorm12Package('Сломанный манифест', one(), {
        edit: (z) => void z.file('imsmanifest.xml', '<manifest><organizations></manifest>'),
      }),
  },
];
