import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { AUDIT_ENTITIES, type AuditAction, type AuditEntity, type AuditRecord } from '@portal/contracts';
import { ACTIVITY_KINDS, activityPhrase, genderOf, kindOf, readableDetails } from './phrase';

const ivan = { id: 'u1', fullName: 'Иван Петров', email: 'ivan@example.test' };
const anna = { id: 'u2', fullName: 'Анна Смирнова', email: 'anna@example.test' };
const record = (patch: Partial<AuditRecord>): AuditRecord => ({
  id: 'e1',
  action: 'create',
  entity: 'course',
  entityId: 'c1',
  details: 'Создан курс «Основы HR»',
  user: ivan,
  timestamp: '2026-11-22T10:00:00.000Z',
  ...patch,
});

describe('the phrase of an audit record', () => {
  it('reads as the spec’s example', () => {
    expect(activityPhrase(record({}))).toBe('Иван Петров создал курс «Основы HR»');
  });

  it('agrees the verb with the person', () => {
    expect(activityPhrase(record({ user: anna }))).toBe('Анна Смирнова создала курс «Основы HR»');
    expect(activityPhrase(record({ user: anna, action: 'login', entity: 'user', details: 'Вход в систему' }))).toBe(
      'Анна Смирнова вошла в систему',
    );
    expect(activityPhrase(record({ action: 'logout', entity: 'user', details: 'Выход из системы' }))).toBe(
      'Иван Петров вышел из системы',
    );
  });

  it('names organizations, contacts, users, lessons and modules as their services describe them', () => {
    expect(activityPhrase(record({ entity: 'organization', details: 'Создана организация "ООО Вектор" (ИНН 7701234567)' }))).toBe(
      'Иван Петров создал организацию «ООО Вектор»',
    );
    expect(
      activityPhrase(
        record({
          action: 'update',
          entity: 'organization',
          details: 'Изменена организация "ООО Вектор" (ИНН 1): статус Активна → Неактивна',
        }),
      ),
    ).toBe('Иван Петров изменил организацию «ООО Вектор»');
    expect(
      activityPhrase(
        record({ user: anna, action: 'delete', entity: 'contact', details: 'Удалён контакт Борис Орлов <boris@example.test>' }),
      ),
    ).toBe('Анна Смирнова удалила контакт «Борис Орлов»');
    expect(
      activityPhrase(record({ action: 'read', entity: 'profile', details: 'Просмотр данных пользователя olga@example.test' })),
    ).toBe('Иван Петров просмотрел данные пользователя olga@example.test');
    expect(
      activityPhrase(
        record({ user: anna, action: 'read', entity: 'profile', details: 'Просмотр контактов организации "ООО Вектор": 3' }),
      ),
    ).toBe('Анна Смирнова просмотрела контакты организации «ООО Вектор»');
    expect(
      activityPhrase(
        record({ action: 'read', entity: 'profile', details: 'Просмотр справочника пользователей: страница 2, записей 20' }),
      ),
    ).toBe('Иван Петров просмотрел справочник пользователей');
    expect(
      activityPhrase(
        record({ action: 'update', entity: 'user', details: 'Изменён пользователь olga@example.test, роль CLIENT → CURATOR' }),
      ),
    ).toBe('Иван Петров изменил пользователя olga@example.test: роль Клиент → Куратор');
    expect(activityPhrase(record({ entity: 'lesson', details: 'Создан урок «урок_1» в курсе «Основы HR»' }))).toBe(
      'Иван Петров создал урок «урок_1»',
    );
    expect(activityPhrase(record({ entity: 'block', details: 'Создан модуль «модуль_1» в курсе «Основы HR»' }))).toBe(
      'Иван Петров создал модуль «модуль_1»',
    );
  });

  it('tells applications for a staff role, co-authors and archiving in Russian', () => {
    const phrase = (action: AuditAction, entity: AuditEntity, details: string) =>
      activityPhrase(record({ action, entity, details }));
    expect(phrase('create', 'application', 'Заявка на роль CURATOR от ivan@example.test')).toBe(
      'Иван Петров подал заявку на роль «Куратор»',
    );
    expect(phrase('update', 'application', 'Одобрена заявка olga@example.test на роль CURATOR')).toBe(
      'Иван Петров одобрил заявку olga@example.test на роль «Куратор»',
    );
    expect(
      activityPhrase(
        record({
          user: anna,
          action: 'update',
          entity: 'application',
          details: 'Отклонена заявка olga@example.test на роль CURATOR',
        }),
      ),
    ).toBe('Анна Смирнова отклонила заявку olga@example.test на роль «Куратор»');
    expect(phrase('update', 'course', 'Добавлен соавтор olga@example.test курса «Основы HR»')).toBe(
      'Иван Петров добавил соавтора olga@example.test курса «Основы HR»',
    );
    expect(phrase('update', 'course', 'Курс «Основы HR» перенесён в архив: по нему есть попытки или прогресс учащихся')).toBe(
      'Иван Петров перенёс в архив курс «Основы HR»',
    );
  });

  it('says what really happened when the action alone would misname it', () => {
    expect(activityPhrase(record({ user: anna, details: 'Курс «Основы HR» добавлен в избранное' }))).toBe(
      'Анна Смирнова добавила в избранное курс «Основы HR»',
    );
    expect(activityPhrase(record({ entity: 'progress', details: 'Начат курс «Основы HR»' }))).toBe(
      'Иван Петров начал курс «Основы HR»',
    );
    expect(activityPhrase(record({ entity: 'block', details: 'Загружен файл «план.pdf» (1.20 МБ)' }))).toBe(
      'Иван Петров загрузил файл «план.pdf»',
    );
    expect(activityPhrase(record({ user: anna, entity: 'user', entityId: 'u2', details: 'Регистрация с ролью CLIENT' }))).toBe(
      'Анна Смирнова зарегистрировалась с ролью «Клиент»',
    );
  });

  it('has a subject even without a person, and without a name', () => {
    expect(activityPhrase(record({ user: null, action: 'delete', details: 'Удалены старые записи' }))).toBe(
      'Система удалила курс',
    );
  });
});

describe('the gender a name tells', () => {
  it.each([
    ['Иван Петров', 'm'],
    ['Анна Смирнова', 'f'],
    ['Екатерина Волкова', 'f'],
    ['Ольга Кузнецова', 'f'],
    ['Дмитрий Соколов', 'm'],
    ['Михаил Орлов', 'm'],
    ['Никита Ким', 'm'],
    ['Илья', 'm'],
    ['Мария', 'f'],
    ['Любовь Ли', 'f'],
    ['Лев Толстой', 'm'],
    ['Мария Толстая', 'f'],
    ['Константин', 'm'],
    ['Гость Демо', 'm'],
  ])('%s', (name, gender) => {
    expect(genderOf(name)).toBe(gender);
  });
});

/*
 * What the services publish, read from their source: every `audit.publish({...})` and
 * `recordAudit(deps, {...})` call, with its action, the entities it may name and the shapes of
 * its details. Values the source fixes (literals, conditionals, constants and tables in the same
 * file, `.replace`) are followed; anything else (a title, a count) becomes «Х».
 */
const ROOT = join(__dirname, '..', '..');
const UNKNOWN = 'Х';
const MAX_SHAPES = 64;

interface PublishSite {
  where: string;
  action: string | null;
  entities: string[];
  shapes: string[];
}

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sourceFiles(path);
    return /\.ts$/.test(entry.name) && !/\.(test|d)\.ts$/.test(entry.name) ? [path] : [];
  });

function publishSites(file: string): PublishSite[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const declarations = new Map<string, ts.Expression>();
  const visitDeclarations = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && node.initializer) {
      if (ts.isIdentifier(node.name)) declarations.set(node.name.text, node.initializer);
      // const { entity, noun } = TABLE[key]: each name is that property of the table's rows.
      if (ts.isObjectBindingPattern(node.name))
        for (const element of node.name.elements)
          if (ts.isIdentifier(element.name)) {
            const property =
              element.propertyName && ts.isIdentifier(element.propertyName) ? element.propertyName.text : element.name.text;
            declarations.set(element.name.text, ts.factory.createPropertyAccessExpression(node.initializer, property));
          }
    }
    ts.forEachChild(node, visitDeclarations);
  };
  visitDeclarations(source);

  const unwrap = (e: ts.Expression): ts.Expression =>
    ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e) ? unwrap(e.expression) : e;

  /** The object literals an expression may be. */
  const objectsOf = (raw: ts.Expression, depth = 0): ts.ObjectLiteralExpression[] => {
    const e = unwrap(raw);
    if (depth > 8) return [];
    if (ts.isObjectLiteralExpression(e)) return [e];
    if (ts.isIdentifier(e)) {
      const init = declarations.get(e.text);
      return init ? objectsOf(init, depth + 1) : [];
    }
    if (ts.isElementAccessExpression(e))
      return objectsOf(e.expression, depth + 1).flatMap((table) =>
        table.properties.flatMap((p) => (ts.isPropertyAssignment(p) ? objectsOf(p.initializer, depth + 1) : [])),
      );
    if (ts.isPropertyAccessExpression(e)) return propertyOf(e, depth).flatMap((v) => objectsOf(v, depth + 1));
    return [];
  };
  const propertyOf = (e: ts.PropertyAccessExpression, depth: number): ts.Expression[] =>
    objectsOf(e.expression, depth + 1).flatMap((o) =>
      o.properties.flatMap((p) =>
        ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === e.name.text ? [p.initializer] : [],
      ),
    );

  /** The strings an expression may be; «Х» where the source does not fix it. */
  const valuesOf = (raw: ts.Expression, depth = 0): string[] => {
    const e = unwrap(raw);
    if (depth > 8) return [UNKNOWN];
    if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return [e.text];
    if (ts.isTemplateExpression(e)) {
      let shapes = [e.head.text];
      for (const span of e.templateSpans) {
        const values = valuesOf(span.expression, depth + 1);
        shapes = shapes.flatMap((s) => values.map((v) => s + v + span.literal.text)).slice(0, MAX_SHAPES);
      }
      return shapes;
    }
    if (ts.isConditionalExpression(e)) return [...valuesOf(e.whenTrue, depth + 1), ...valuesOf(e.whenFalse, depth + 1)];
    if (ts.isIdentifier(e)) {
      const init = declarations.get(e.text);
      return init ? valuesOf(init, depth + 1) : [UNKNOWN];
    }
    if (ts.isElementAccessExpression(e)) {
      const rows = objectsOf(e.expression, depth + 1).flatMap((table) =>
        table.properties.flatMap((p) => (ts.isPropertyAssignment(p) ? valuesOf(p.initializer, depth + 1) : [])),
      );
      return rows.length ? rows : [UNKNOWN];
    }
    if (ts.isPropertyAccessExpression(e)) {
      const values = propertyOf(e, depth).flatMap((v) => valuesOf(v, depth + 1));
      return values.length ? values : [UNKNOWN];
    }
    // A call of an arrow function of the file that returns an expression (`exportDetails(format)`) is that expression.
    if (ts.isCallExpression(e) && ts.isIdentifier(e.expression)) {
      const init = declarations.get(e.expression.text);
      if (init && ts.isArrowFunction(init) && !ts.isBlock(init.body)) return valuesOf(init.body, depth + 1);
    }
    if (ts.isCallExpression(e) && ts.isPropertyAccessExpression(e.expression) && e.expression.name.text === 'replace') {
      const [pattern, replacement] = e.arguments;
      const by = replacement ? valuesOf(replacement, depth + 1) : [UNKNOWN];
      return valuesOf(e.expression.expression, depth + 1).flatMap((s) =>
        pattern && ts.isStringLiteral(pattern) ? by.map((b) => s.replace(pattern.text, b)) : [s],
      );
    }
    return [UNKNOWN];
  };

  const sites: PublishSite[] = [];
  const visitCalls = (node: ts.Node) => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression.getText(source);
      if (callee === 'recordAudit' || callee === 'record' || /(^|\.)audit\.publish$/.test(callee)) {
        const event = node.arguments.map(unwrap).find(ts.isObjectLiteralExpression);
        // `publish({ ...event, actor })` relays what its callers wrote: those callers are the sites.
        if (event && !event.properties.some(ts.isSpreadAssignment)) {
          const field = (name: string) => {
            for (const p of event.properties) {
              if (ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === name) return p.initializer;
              if (ts.isShorthandPropertyAssignment(p) && p.name.text === name) return p.name;
            }
            return null;
          };
          const declared = callee === 'record' ? declaredAudit(file, node) : null;
          const [action, entity, details] = declared
            ? [declared.action, declared.entity, field('details')]
            : ['action', 'entity', 'details'].map(field);
          const actions = action ? valuesOf(action) : [];
          const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
          sites.push({
            where: `${file.slice(ROOT.length + 1)}:${line + 1}`,
            action: actions.length === 1 && actions[0] !== UNKNOWN ? actions[0] : null,
            entities: entity ? [...new Set(valuesOf(entity))] : [],
            shapes: details ? [...new Set(valuesOf(details))] : [],
          });
        }
      }
    }
    ts.forEachChild(node, visitCalls);
  };
  visitCalls(source);
  return sites;
}

/**
 * The audit event a declared route's handler records (`record({ details })` inside
 * `implement(declaration, …)`): its action and entity, as the route's declaration in the
 * `declarations.ts` beside the handler says (`audit: { action, entity }`). A helper the file's
 * handlers share records for each of them: it is read only when all their declarations agree.
 */
function declaredAudit(file: string, call: ts.Node): { action: ts.Expression; entity: ts.Expression } | null {
  let node: ts.Node | undefined = call.parent;
  while (node && !(ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'implement'))
    node = node.parent;
  // `implement(exportX, …)`, or `implement(declared.exportX, …)` over `import * as declared`.
  const argument = node && ts.isCallExpression(node) ? node.arguments[0] : undefined;
  const named = argument && ts.isPropertyAccessExpression(argument) ? argument.name : argument;
  if (node && (!named || !ts.isIdentifier(named))) return null;
  // No `implement` around the call: a helper shared by the file's handlers.
  const name = named && ts.isIdentifier(named) ? named : null;
  const path = join(dirname(file), 'declarations.ts');
  if (!existsSync(path)) return null;
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.ES2022, true);
  let found: { action: ts.Expression; entity: ts.Expression } | null = null;
  const audits: Array<{ action: ts.Expression; entity: ts.Expression }> = [];
  const visit = (n: ts.Node) => {
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && (!name || n.name.text === name.text) && n.initializer) {
      const declaration = ts.isCallExpression(n.initializer) ? n.initializer.arguments[0] : undefined;
      const audit =
        declaration && ts.isObjectLiteralExpression(declaration)
          ? declaration.properties.find((p) => ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === 'audit')
          : undefined;
      if (audit && ts.isPropertyAssignment(audit) && ts.isObjectLiteralExpression(audit.initializer)) {
        const of = (key: string) =>
          (audit.initializer as ts.ObjectLiteralExpression).properties.find(
            (p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === key,
          )?.initializer;
        const [action, entity] = [of('action'), of('entity')];
        if (action && entity) {
          found = { action, entity };
          audits.push(found);
        }
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(source);
  if (name) return found;
  const said = new Set(audits.map((a) => `${a.action.getText(source)} ${a.entity.getText(source)}`));
  return said.size === 1 ? audits[0] : null;
}

const PUBLISH_SITES = ['services', 'gateway'].flatMap((dir) => sourceFiles(join(ROOT, dir))).flatMap(publishSites);

const isEntity = (value: string): value is AuditEntity => (AUDIT_ENTITIES as readonly string[]).includes(value);
const recordOf = (action: AuditAction, entity: AuditEntity, details: string) =>
  record({ action, entity, details, entityId: 'x1' });
// Latin a person may read: names people gave («title», "name", an email), an export's file name and the
// SCORM standard's name, never a code.
const latinLeft = (text: string) =>
  text.replace(/«[^»]*»|"[^"]*"|[^\s<>,()]+@[^\s<>,()]+|[a-z_]+\.(csv|xlsx)|\bSCORM\b/g, '').match(/[A-Za-z_]+/g) ?? [];

describe('every kind of event the services publish has its own Russian phrase', () => {
  it('finds the publishing calls of every service in the source', () => {
    const services = new Set(PUBLISH_SITES.map((s) => s.where.split('/')[1]));
    expect([...services].sort()).toEqual(['audit', 'auth', 'content', 'crm', 'progress']);
    expect(PUBLISH_SITES.length).toBeGreaterThanOrEqual(30);
  });

  it.each(PUBLISH_SITES.map((site) => [site.where, site] as const))('%s', (_where, site) => {
    expect(site.action).not.toBeNull();
    expect(site.entities.length).toBeGreaterThan(0);
    expect(site.entities.filter((e) => !isEntity(e))).toEqual([]);
    expect(site.shapes.length).toBeGreaterThan(0);
    const action = site.action as AuditAction;
    for (const details of site.shapes) {
      // A table may give the entity and the details together (a module or a lesson): one of them names this shape.
      const named = site.entities.filter(isEntity).find((entity) => kindOf(recordOf(action, entity, details)));
      expect({ details, kind: !!named }).toEqual({ details, kind: true });
      if (named) expect(latinLeft(activityPhrase(recordOf(action, named, details)))).toEqual([]);
    }
  });

  it.each(ACTIVITY_KINDS.map((k) => [`${k.action} ${k.entity}: ${k.example}`, k] as const))('%s', (_name, known) => {
    const example = recordOf(known.action, known.entity, known.example);
    expect(kindOf(example)).toBe(known);
    const phrase = activityPhrase(example);
    expect(phrase.startsWith('Иван Петров ')).toBe(true);
    expect(latinLeft(phrase)).toEqual([]);
    expect(latinLeft(readableDetails(known.example))).toEqual([]);
  });

  it('tells a learner’s quiz attempts, lesson completions and the export from authoring', () => {
    const phrase = (action: AuditAction, entity: AuditEntity, details: string) =>
      activityPhrase(recordOf(action, entity, details));
    expect(phrase('create', 'quiz', 'Начата попытка 1 квиза «Итоговый тест» (курс «Основы HR»)')).toBe(
      'Иван Петров начал попытку квиза «Итоговый тест»',
    );
    expect(phrase('update', 'quiz', 'Квиз «Итоговый тест» пройден: 3 из 3 (100%), попытка 1')).toBe(
      'Иван Петров прошёл квиз «Итоговый тест»',
    );
    expect(phrase('update', 'quiz', 'Квиз «Итоговый тест» не пройден: 1 из 3 (33%), попытка 2')).toBe(
      'Иван Петров не прошёл квиз «Итоговый тест»',
    );
    expect(phrase('create', 'progress', 'Урок «Знакомство» курса «Основы HR» пройден')).toBe(
      'Иван Петров завершил урок «Знакомство»',
    );
    expect(phrase('read', 'quiz', 'Выгрузка результатов квизов в quiz_results.csv')).toBe(
      'Иван Петров выгрузил результаты квизов',
    );
    expect(
      activityPhrase(
        record({
          user: null,
          action: 'update',
          entity: 'quiz',
          details: 'Время попытки 1 квиза «Тест» (Анна Смирнова) истекло: 0 из 3 (0%)',
        }),
      ),
    ).toBe('Система завершила по истечении времени попытку квиза «Тест» (Анна Смирнова)');
  });

  it('shows roles and statuses by their Russian labels', () => {
    expect(activityPhrase(record({ action: 'update', details: 'Изменён курс «Основы HR», статус published → hidden' }))).toBe(
      'Иван Петров изменил курс «Основы HR»: статус Опубликован → Скрыт',
    );
    expect(readableDetails('Изменён курс «Основы HR», статус published → hidden')).toBe(
      'Изменён курс «Основы HR», статус Опубликован → Скрыт',
    );
    expect(activityPhrase(record({ user: anna, entity: 'user', entityId: 'u2', details: 'Регистрация с ролью CANDIDATE' }))).toBe(
      'Анна Смирнова зарегистрировалась с ролью «Кандидат»',
    );
    expect(readableDetails('Изменён пользователь olga@example.test, роль CLIENT → CURATOR')).toBe(
      'Изменён пользователь olga@example.test, роль Клиент → Куратор',
    );
  });
});
