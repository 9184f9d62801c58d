import { generateCourseSchema } from '@portal/contracts';
import { lessonsPrompt, quizPrompt, regenerationPrompt, repairPrompt, structurePrompt } from './prompts';

const request = generateCourseSchema.parse({
  topic: 'Информационная безопасность',
  audience: 'Новые сотрудники офиса',
  goals: ['Распознавать фишинговые письма', 'Создавать надёжные пароли', 'Сообщать об инцидентах'],
  level: 'Средний',
  modulesCount: 4,
  lessonsPerModule: 3,
  withQuizzes: true,
});

const text = (messages: Array<{ content: string }>) => messages.map((m) => m.content).join('\n');

describe('the course prompt', () => {
  it('carries the topic, audience, level, every goal and the counts, in Russian', () => {
    const prompt = text(structurePrompt(request));
    expect(prompt).toContain('Тема курса: Информационная безопасность');
    expect(prompt).toContain('Аудитория: Новые сотрудники офиса');
    expect(prompt).toContain('Уровень: Средний');
    request.goals.forEach((goal, i) => expect(prompt).toContain(`${i + 1}. ${goal}`));
    expect(prompt).toContain('Количество содержательных модулей: 4');
    expect(prompt).toContain('Уроков в каждом содержательном модуле: 3');
    expect(prompt).toContain('Квизы: да');
  });

  it('describes the JSON shape to return and asks for JSON only', () => {
    const [system, user] = structurePrompt(request);
    expect(system.role).toBe('system');
    expect(system.content).toMatch(/одним JSON-объектом/);
    expect(user.content).toContain('"lessonTitles"');
    expect(user.content).toContain('"modules"');
  });

  it('without counts asks for one module per goal, and says when quizzes are not wanted', () => {
    const prompt = text(
      structurePrompt({ ...request, modulesCount: undefined, lessonsPerModule: undefined, withQuizzes: false }),
    );
    expect(prompt).toContain('по одному на каждую цель (3)');
    expect(prompt).toContain('Квизы: нет');
  });

  it('asks for a module’s lessons with the block shapes and a quiz with the question shapes', () => {
    const module = { title: 'Пароли', description: 'Про пароли', lessonTitles: ['Длина', 'Менеджеры паролей'] };
    const lessons = text(lessonsPrompt(request, 'Безопасность', module));
    expect(lessons).toContain('«Пароли»');
    expect(lessons).toContain('«Длина», «Менеджеры паролей»');
    expect(lessons).toContain('"type": "heading"');
    expect(lessons).toContain('"suggestion"');
    const quiz = text(quizPrompt(request, 'Безопасность', module, false));
    expect(quiz).toContain('"single_choice"');
    expect(quiz).toContain('"true_false"');
    expect(quiz).toContain('explanation');
  });
});

describe('the regeneration prompt', () => {
  it('gives the course as context, the node as it is now and the author’s instructions', () => {
    const prompt = text(
      regenerationPrompt(
        { title: 'Безопасность', description: 'Курс для офиса', moduleTitles: ['Введение', 'Пароли'] },
        { kind: 'lesson', moduleTitle: 'Пароли', title: 'Длина пароля', blocks: [{ type: 'text', text: 'Старый текст урока' }] },
        'больше практики',
      ),
    );
    expect(prompt).toContain('Курс: «Безопасность»');
    expect(prompt).toContain('Описание курса: Курс для офиса');
    expect(prompt).toContain('«Введение», «Пароли»');
    expect(prompt).toContain('Длина пароля');
    expect(prompt).toContain('Старый текст урока');
    expect(prompt).toContain('Пожелания автора: больше практики');
    expect(prompt).toContain('"blocks"');
  });

  it('the repair call sends the invalid answer back with its problems', () => {
    const base = structurePrompt(request);
    const repair = repairPrompt(base, '{"title":', ['title: Required']);
    expect(repair.slice(0, base.length)).toEqual(base);
    expect(repair[base.length]).toEqual({ role: 'assistant', content: '{"title":' });
    expect(repair[base.length + 1].content).toContain('- title: Required');
  });
});
