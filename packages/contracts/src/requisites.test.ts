import { organizationCreateSchema, organizationUpdateSchema } from './crm';
import { REQUISITES_MSG, completeInn, innChecksumHolds, innSchema, kppSchema, ogrnChecksumHolds, ogrnSchema } from './requisites';

const messageOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? null : result.error!.issues[0].message;

describe('ИНН', () => {
  it.each([
    ['7707083893', 'ПАО Сбербанк'],
    ['7736207543', 'ООО «Яндекс»'],
    ['500100732259', 'ИП, 12 цифр'],
    ['7830002293', 'АО, Санкт-Петербург'],
  ])('accepts %s (%s)', (inn) => {
    expect(innChecksumHolds(inn)).toBe(true);
    expect(innSchema.parse(inn)).toBe(inn);
  });

  it.each([
    ['1234567890', REQUISITES_MSG.innChecksum],
    ['7707083894', REQUISITES_MSG.innChecksum], // the check digit off by one
    ['500100732250', REQUISITES_MSG.innChecksum], // the 12th digit wrong
    ['500100732269', REQUISITES_MSG.innChecksum], // the 11th digit wrong
    ['0000000000', REQUISITES_MSG.innZeros],
    ['000000000000', REQUISITES_MSG.innZeros],
    ['770708389', REQUISITES_MSG.innFormat], // 9 digits
    ['77070838931', REQUISITES_MSG.innFormat], // 11 digits
    ['77O7083893', REQUISITES_MSG.innFormat], // a letter O
    ['-7707083893', REQUISITES_MSG.innFormat],
  ])('refuses %s in Russian', (inn, message) => {
    expect(messageOf(innSchema.safeParse(inn))).toBe(message);
  });

  it('reads a number typed with spaces, and asks for a missing one with the spec text', () => {
    expect(innSchema.parse(' 7707 083 893 ')).toBe('7707083893');
    expect(messageOf(innSchema.safeParse('   '))).toBe('Заполните обязательные поля');
  });

  it('completes 9 or 10 digits with the right check digits', () => {
    expect(completeInn('770708389')).toBe('7707083893');
    expect(completeInn('5001007322')).toBe('500100732259');
  });
});

describe('КПП and ОГРН', () => {
  it('accepts a 9-character КПП (letters allowed in the reason code) and none at all', () => {
    expect(kppSchema.parse('773601001')).toBe('773601001');
    expect(kppSchema.parse('7736ab001')).toBe('7736AB001');
    expect(kppSchema.parse('')).toBeNull();
    expect(kppSchema.parse(undefined)).toBeNull();
    for (const bad of ['77360100', '7736010011', '77360100X', 'КПП123456'])
      expect(messageOf(kppSchema.safeParse(bad))).toBe(REQUISITES_MSG.kppFormat);
  });

  it('checks the ОГРН (13 digits, mod 11) and ОГРНИП (15 digits, mod 13) check digit', () => {
    expect(ogrnChecksumHolds('1027700132195')).toBe(true); // ПАО Сбербанк
    expect(ogrnChecksumHolds('304500116000157')).toBe(true); // an ОГРНИП
    expect(ogrnSchema.parse(' 1027700132195 ')).toBe('1027700132195');
    expect(ogrnSchema.parse(null)).toBeNull();
    expect(messageOf(ogrnSchema.safeParse('1027700132196'))).toBe(REQUISITES_MSG.ogrnChecksum);
    expect(messageOf(ogrnSchema.safeParse('304500116000158'))).toBe(REQUISITES_MSG.ogrnChecksum);
    expect(messageOf(ogrnSchema.safeParse('10277001321'))).toBe(REQUISITES_MSG.ogrnFormat);
  });

  it('are part of an organization, on create and on edit', () => {
    const created = organizationCreateSchema.parse({
      name: 'ПАО Сбербанк',
      inn: '7707083893',
      kpp: '773601001',
      ogrn: '1027700132195',
    });
    expect(created).toMatchObject({ inn: '7707083893', kpp: '773601001', ogrn: '1027700132195' });
    expect(messageOf(organizationUpdateSchema.safeParse({ inn: '1234567890' }))).toBe(REQUISITES_MSG.innChecksum);
    expect(organizationUpdateSchema.parse({ kpp: '' })).toEqual({ kpp: null });
  });
});
