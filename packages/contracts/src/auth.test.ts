import { emailField } from './auth';
import { MSG } from './messages';

const messageOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? null : result.error!.issues[0].message;

describe('emailField', () => {
  const email = emailField(MSG.fillRequired);

  it('keeps an email trimmed and in lower case', () => {
    expect(email.parse('  Olga@Romashka.RU ')).toBe('olga@romashka.ru');
  });

  it.each([
    ['missing', undefined],
    ['not text', 42],
    ['blank', '   '],
  ])('refuses a %s email with the message the form asks for', (_case, value) => {
    expect(messageOf(email.safeParse(value))).toBe(MSG.fillRequired);
  });

  it.each([
    ['without @', 'olga.romashka.ru'],
    ['longer than 254 characters', `${'o'.repeat(250)}@romashka.ru`],
  ])('refuses an email %s as not an email', (_case, value) => {
    expect(messageOf(email.safeParse(value))).toBe(MSG.emailInvalid);
  });
});
