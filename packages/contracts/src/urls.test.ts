import { contentBlockSchema, organizationCreateSchema, organizationUpdateSchema, CONTENT_MSG, URL_MSG } from './index';
import { isMediaUrl, isSiteUrl } from './urls';

describe('media addresses: the portal’s own paths and http(s) elsewhere, read as a browser reads them', () => {
  it.each([
    '',
    '/api/files/0b0c5e0e-1111-4a4a-8b8b-123456789abc.png',
    '/api/files/лекция.mp4?download=1#t=10',
    'https://cdn.example.ru/video.mp4',
    'HTTP://EXAMPLE.RU/a.png',
  ])('accepts %j', (text) => expect(isMediaUrl(text)).toBe(true));

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'data:image/png;base64,iVBORw0KGgo=',
    'file:///etc/passwd',
    'vbscript:msgbox(1)',
    '//evil.example/x.png',
    '/\\evil.example/x.png',
    '/\t/evil.example/x.png',
    '/\n/evil.example',
    '\\\\evil.example\\x',
    'https://user:password@evil.example/',
    'http://',
    'https:evil.example',
    'api/files/x.png',
  ])('refuses %j', (text) => expect(isMediaUrl(text)).toBe(false));

  it('a media block refuses such an address with the Russian message, and keeps a good one', () => {
    const image = (src: string) => contentBlockSchema.safeParse({ id: 'b1', type: 'image', content: { src } });
    for (const src of ['javascript:alert(1)', '//evil.example/x.png', '/\\evil.example/x.png']) {
      const result = image(src);
      expect({ src, message: result.success ? 'accepted' : result.error.issues[0].message }).toEqual({
        src,
        message: CONTENT_MSG.urlInvalid,
      });
    }
    expect(image('/api/files/a.png').success).toBe(true);
  });
});

describe('an organization’s site: a web address, a bare host read as https', () => {
  it.each(['example.ru', 'www.example.ru/about', 'example.ru:8080/x', 'https://example.ru', 'http://пример.рф/путь'])(
    'accepts %j',
    (text) => expect(isSiteUrl(text)).toBe(true),
  );

  it.each([
    'javascript:alert(1)',
    'data:text/html,<b>x</b>',
    'file:///etc/passwd',
    'mailto:a@example.ru',
    '//evil.example',
    '/local/path',
    'exa mple.ru',
    'https://user:pw@example.ru',
    'ftp://example.ru',
  ])('refuses %j', (text) => expect(isSiteUrl(text)).toBe(false));

  it('the create and update schemas refuse it in Russian; blank still means no site', () => {
    const created = organizationCreateSchema.safeParse({ name: 'ООО', inn: '7707083893', site: 'javascript:alert(1)' });
    expect(created.success ? 'accepted' : created.error.issues[0].message).toBe(URL_MSG.siteInvalid);
    const updated = organizationUpdateSchema.safeParse({ site: 'data:text/html,x' });
    expect(updated.success ? 'accepted' : updated.error.issues[0].message).toBe(URL_MSG.siteInvalid);
    expect(organizationUpdateSchema.parse({ site: '  ' })).toEqual({ site: null });
  });
});
