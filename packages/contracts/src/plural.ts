/** A Russian word's forms after a number: 1 урок, 3 урока, 5 уроков; `other` (fractions: 1,5 часа) is `few` unless given. */
export interface RuForms {
  one: string;
  few: string;
  many: string;
  other?: string;
}

const rules = new Intl.PluralRules('ru-RU');

/** The form of a word after `n`: «урок», «урока» or «уроков». */
export function ruForm(n: number, forms: RuForms): string {
  const rule = rules.select(n);
  if (rule === 'one' || rule === 'few' || rule === 'many') return forms[rule];
  return forms.other ?? forms.few;
}

/** The number and its word: «1 урок», «3 урока», «21 урок». */
export const ruCount = (n: number, forms: RuForms): string => `${n} ${ruForm(n, forms)}`;
