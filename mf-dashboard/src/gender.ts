/*
 * A Russian past-tense verb agrees with the person's gender, which the portal does not store: it is
 * read from the name (surname endings first, then the first name), masculine when nothing tells.
 */

export type Gender = 'm' | 'f';

const FEMALE_WORD = /(ова|ева|ёва|ина|ына|ская|цкая|ая)$/;
const MALE_WORD = /(ов|ев|ёв|ин|ын|ский|цкий|ой)$/;
// First names that end in -а/-я yet are a man's, and ones that end in -ь yet are a woman's.
const MALE_IN_A = new Set([
  'никита',
  'илья',
  'кузьма',
  'фома',
  'лука',
  'савва',
  'данила',
  'гаврила',
  'миша',
  'гоша',
  'паша',
  'дима',
  'ваня',
  'петя',
  'вася',
  'коля',
  'толя',
  'серёжа',
  'сережа',
  'лёша',
  'леша',
  'витя',
  'федя',
  'юра',
  'костя',
  'слава',
]);
const FEMALE_IN_SOFT_SIGN = new Set(['любовь', 'нинель', 'адель', 'эсфирь', 'рахиль', 'юдифь']);

/** The grammatical gender of a full name, as well as the name can tell. */
export function genderOf(fullName: string): Gender {
  const words = fullName.toLowerCase().split(/\s+/).filter(Boolean);
  for (const word of words) {
    if (MALE_IN_A.has(word)) return 'm';
    if (FEMALE_IN_SOFT_SIGN.has(word)) return 'f';
    if (word.length > 4 && FEMALE_WORD.test(word)) return 'f';
    if (word.length > 3 && MALE_WORD.test(word)) return 'm';
  }
  const first = words[0] ?? '';
  return /[ая]$/.test(first) ? 'f' : 'm';
}
