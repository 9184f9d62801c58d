import { z } from 'zod';
import './zod-ru';

/** A person's name in parts (ФИО). `fullName` is built from them, surname first. */
export interface NameParts {
  lastName: string;
  firstName: string;
  middleName: string;
}

/**
 * The parts read from a full name in the Russian official word order: Фамилия Имя Отчество.
 * One word is taken as the first name (it is what a greeting says); words past the third stay in
 * the patronymic («Оглы», «Кызы»). An administrator corrects a wrong guess in the directory.
 */
export function splitFullName(fullName: string): NameParts {
  const words = fullName.trim().split(/\s+/).filter(Boolean);
  if (words.length <= 1) return { lastName: '', firstName: words[0] ?? '', middleName: '' };
  return { lastName: words[0], firstName: words[1], middleName: words.slice(2).join(' ') };
}

/** «Фамилия Имя Отчество», skipping the empty parts. */
export const joinName = (parts: Partial<NameParts>): string =>
  [parts.lastName, parts.firstName, parts.middleName]
    .map((p) => (p ?? '').trim())
    .filter(Boolean)
    .join(' ');

const text = (max: number) => z.string().trim().max(max);

/** Name parts, department and position as the directory edits them (each optional in a body). */
export const personFields = {
  lastName: text(100).optional(),
  firstName: text(100).optional(),
  middleName: text(100).optional(),
  department: text(120).optional(),
  position: text(120).optional(),
};
