import type { ProgramTemplate } from '@portal/contracts';

/**
 * The two ready structures a curator copies (docs/decisions/092): stages and deadlines only. The
 * courses are the company's own: a copy has none until its author adds them, and cannot be assigned
 * before every stage has one.
 */
export const PROGRAM_TEMPLATES: readonly ProgramTemplate[] = [
  {
    key: 'onboarding',
    title: 'Адаптация нового сотрудника',
    description:
      'Первые недели в компании: знакомство с компанией и её правилами, обязательная безопасность, затем инструменты своего подразделения.',
    stages: [
      { key: 'company', title: 'Знакомство с компанией', required: null, dueDays: 7, dueFrom: 'assigned', locked: false },
      {
        key: 'safety',
        title: 'Охрана труда и информационная безопасность',
        required: null,
        dueDays: 14,
        dueFrom: 'assigned',
        locked: false,
      },
      { key: 'department', title: 'Инструменты подразделения', required: null, dueDays: 30, dueFrom: 'previous', locked: true },
    ],
  },
  {
    key: 'annual-safety',
    title: 'Ежегодная проверка знаний по охране труда',
    description: 'Повторяется каждый год: сначала теория, затем проверка знаний, которая открывается после теории.',
    stages: [
      { key: 'theory', title: 'Теория', required: null, dueDays: 21, dueFrom: 'assigned', locked: false },
      { key: 'exam', title: 'Проверка знаний', required: null, dueDays: 9, dueFrom: 'previous', locked: true },
    ],
  },
];
