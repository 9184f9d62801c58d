import { z } from 'zod';

/*
 * Every module of the contracts that makes a schema imports this one, so the Russian messages are
 * set wherever a schema exists, and a page that needs only words and rules from the contracts loads
 * no zod at all.
 */

/** Russian defaults for zod's generic messages; schemas still give their own where the spec quotes one. */
z.config({
  customError: (issue) => {
    const field = issue.path?.join('.') || 'значение';
    switch (issue.code) {
      case 'invalid_type':
        return issue.input === undefined || issue.input === null
          ? `Поле «${field}» обязательно`
          : `Поле «${field}» имеет неверный тип`;
      case 'unrecognized_keys':
        return `Недопустимые поля: ${issue.keys.join(', ')}`;
      case 'invalid_value':
        return `Поле «${field}»: недопустимое значение`;
      case 'too_small':
        return `Поле «${field}» слишком короткое или маленькое`;
      case 'too_big':
        return `Поле «${field}» слишком длинное или большое`;
      case 'invalid_format':
        return `Поле «${field}» имеет неверный формат`;
      default:
        return `Поле «${field}» заполнено неверно`;
    }
  },
});
