import { MSG, departmentListQuerySchema, userExportQuerySchema, userListQuerySchema, userUpdateSchema } from '@portal/contracts';
import { defineExportRoute, defineRoute } from '@portal/service-kit';
import { administerUsers, manageUsers } from '../../policies/users';
import { departmentPageSchema, idParams, userPageSchema, userSchema } from '../schema';

const params = idParams('Идентификатор пользователя');
const noUser = { description: 'Пользователя нет', example: 'Пользователь не найден' };

/** Before `/:id`, which would otherwise take `export` for an id. */
export const exportUsers = defineExportRoute({
  method: 'GET',
  path: '/api/users/export',
  operationId: 'exportUsers',
  summary: 'Справочник пользователей в CSV или XLSX',
  description: 'Те же поиск и фильтры, что у справочника, все строки.',
  access: manageUsers,
  query: userExportQuerySchema,
  file: 'users',
  audit: ['users.exported'],
});

/** Before `/:id`, which would otherwise take `departments` for an id. */
export const listDepartments = defineRoute({
  method: 'GET',
  path: '/api/users/departments',
  operationId: 'listDepartments',
  summary: 'Подразделения, в которых есть люди',
  description: 'По названию, с поиском по части названия: из них выбирают подразделение назначения.',
  access: manageUsers,
  query: departmentListQuerySchema,
  ok: { status: 200, description: 'Страница подразделений', schema: departmentPageSchema },
});

/** Other people's personal data are read, so a page of them is recorded (152-FZ). */
export const listUsers = defineRoute({
  method: 'GET',
  path: '/api/users',
  operationId: 'listUsers',
  summary: 'Справочник пользователей',
  access: manageUsers,
  query: userListQuerySchema,
  ok: { status: 200, description: 'Страница пользователей', schema: userPageSchema },
  audit: ['users.viewed'],
});

export const getUser = defineRoute({
  method: 'GET',
  path: '/api/users/:id',
  operationId: 'getUser',
  summary: 'Пользователь',
  access: manageUsers,
  params,
  ok: { status: 200, description: 'Пользователь', schema: userSchema },
  also: { 404: noUser },
  audit: ['user.viewed'],
});

export const updateUser = defineRoute({
  method: 'PATCH',
  path: '/api/users/:id',
  operationId: 'updateUser',
  summary: 'Изменить пользователя',
  description:
    'ADMIN меняет имя, email, роль, подразделение и должность любого. CURATOR и MANAGER — имена учащихся, ' +
    'а также своё имя и email. Части имени (lastName, firstName, middleName), когда переданы, составляют fullName ' +
    '(«Фамилия Имя Отчество»). Смена email или роли завершает сеансы человека.',
  access: manageUsers,
  params,
  body: userUpdateSchema,
  example: {
    lastName: 'Петров',
    firstName: 'Иван',
    middleName: 'Сергеевич',
    department: 'Отдел продаж',
    position: 'Менеджер по продажам',
    email: 'ivan.petrov@example.ru',
    role: 'CLIENT',
    version: 3,
  },
  versioned: true,
  ok: { status: 200, description: 'Пользователь после изменения', schema: userSchema },
  also: {
    400: { description: 'Неверные данные, или это роль последнего администратора', example: MSG.lastAdmin },
    404: noUser,
    409: { description: 'Email уже занят', example: MSG.emailTaken },
  },
  audit: ['user.updated'],
});

export const deleteUser = defineRoute({
  method: 'DELETE',
  path: '/api/users/:id',
  operationId: 'deleteUser',
  summary: 'Удалить пользователя',
  access: administerUsers,
  params,
  ok: { status: 204, description: 'Удалён' },
  also: { 400: { description: 'Последнего администратора удалить нельзя', example: MSG.lastAdmin }, 404: noUser },
  audit: ['user.deleted'],
});
