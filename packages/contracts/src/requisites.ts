import { z } from 'zod';
import './zod-ru';
import { MSG } from './messages';

/**
 * An organization's tax requisites as the Federal Tax Service defines them: ИНН (10 digits for a
 * legal entity, 12 for a person or an individual entrepreneur) with its check digits, КПП and
 * ОГРН/ОГРНИП with theirs. The server refuses what fails them; the form shows the same messages.
 */
export const REQUISITES_MSG = {
  innFormat: 'ИНН состоит из 10 цифр (организация) или 12 цифр (ИП)',
  innChecksum: 'Некорректный ИНН: не сходится контрольная сумма',
  innZeros: 'Некорректный ИНН: не может состоять из одних нулей',
  kppFormat: 'КПП состоит из 9 символов: 4 цифры, 2 цифры или заглавные латинские буквы, 3 цифры',
  ogrnFormat: 'ОГРН состоит из 13 цифр, ОГРНИП — из 15',
  ogrnChecksum: 'Некорректный ОГРН: не сходится контрольная цифра',
} as const;

const INN10_WEIGHTS = [2, 4, 10, 3, 5, 9, 4, 6, 8];
const INN12_WEIGHTS_11 = [7, 2, 4, 10, 3, 5, 9, 4, 6, 8];
const INN12_WEIGHTS_12 = [3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8];

const checkDigit = (digits: number[], weights: number[]): number =>
  (weights.reduce((sum, w, i) => sum + w * digits[i], 0) % 11) % 10;

/** Whether the check digits of a 10- or 12-digit ИНН hold (the format is checked apart). */
export function innChecksumHolds(inn: string): boolean {
  const d = [...inn].map(Number);
  if (d.length === 10) return checkDigit(d, INN10_WEIGHTS) === d[9];
  if (d.length === 12) return checkDigit(d, INN12_WEIGHTS_11) === d[10] && checkDigit(d, INN12_WEIGHTS_12) === d[11];
  return false;
}

/**
 * Whether the check digit of an ОГРН (13 digits: the first 12 mod 11) or ОГРНИП (15 digits: the
 * first 14 mod 13) holds; the remainder's last digit is the check digit.
 */
export function ogrnChecksumHolds(ogrn: string): boolean {
  if (!/^\d{13}$|^\d{15}$/.test(ogrn)) return false;
  const body = BigInt(ogrn.slice(0, -1));
  const modulus = ogrn.length === 13 ? 11n : 13n;
  return Number((body % modulus) % 10n) === Number(ogrn.at(-1));
}

/** The check digit that completes 9 or 11 digits into a valid ИНН (for seeds and tests). */
export function completeInn(prefix: string): string {
  const d = [...prefix].map(Number);
  if (d.length === 9) return prefix + checkDigit(d, INN10_WEIGHTS);
  if (d.length === 10) {
    const eleventh = checkDigit(d, INN12_WEIGHTS_11);
    return prefix + eleventh + checkDigit([...d, eleventh], INN12_WEIGHTS_12);
  }
  throw new Error('completeInn: 9 or 10 digits expected');
}

/** Spaces inside a number typed or pasted from a document are not part of it. */
const compact = (v: string) => v.replace(/\s+/g, '');

/** ИНН as the server accepts it: required, 10 or 12 digits, check digits right, not all zeros. */
export const innSchema = z
  .string({ error: MSG.fillRequired })
  .trim()
  .min(1, MSG.fillRequired)
  .transform(compact)
  .superRefine((inn, ctx) => {
    if (!/^\d{10}$|^\d{12}$/.test(inn)) ctx.addIssue({ code: 'custom', message: REQUISITES_MSG.innFormat });
    else if (/^0+$/.test(inn)) ctx.addIssue({ code: 'custom', message: REQUISITES_MSG.innZeros });
    else if (!innChecksumHolds(inn)) ctx.addIssue({ code: 'custom', message: REQUISITES_MSG.innChecksum });
  });

/** Optional: blank is «none» (null). */
export const kppSchema = z
  .string()
  .trim()
  .max(40, REQUISITES_MSG.kppFormat)
  .nullish()
  .transform((v) => (v ? compact(v).toUpperCase() : null))
  .refine((v) => v === null || /^\d{4}[\dA-Z]{2}\d{3}$/.test(v), REQUISITES_MSG.kppFormat);

/** Optional ОГРН (13) or ОГРНИП (15) with its check digit; blank is «none» (null). */
export const ogrnSchema = z
  .string()
  .trim()
  .max(40, REQUISITES_MSG.ogrnFormat)
  .nullish()
  .transform((v) => (v ? compact(v) : null))
  .superRefine((v, ctx) => {
    if (v === null) return;
    if (!/^\d{13}$|^\d{15}$/.test(v)) ctx.addIssue({ code: 'custom', message: REQUISITES_MSG.ogrnFormat });
    else if (!ogrnChecksumHolds(v)) ctx.addIssue({ code: 'custom', message: REQUISITES_MSG.ogrnChecksum });
  });
