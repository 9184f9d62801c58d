import { z } from 'zod';
import { MSG } from '@portal/contracts';
import { binary, fileAnswer, idParam, missing, route, routesOf } from './route';

const tag = 'crm';
const record = {
  access: ['ADMIN', 'CURATOR'] as const,
  params: idParam('id', 'Идентификатор организации'),
  also: missing('Организации нет', 'Организация не найдена'),
};
const ok = { status: 200, description: 'Организация', schema: z.object({ id: z.string() }) };

describe('routesOf', () => {
  it('describes a route of the family as if the shared part were written in it', () => {
    const organizationRoute = routesOf(tag, record);

    expect(organizationRoute({ summary: 'Организация', ok })).toEqual(route(tag, { ...record, summary: 'Организация', ok }));
  });

  it("adds a route's own refusals to the shared ones, its own winning on the same status", () => {
    const organizationRoute = routesOf(tag, record);
    const conflict = { 409: { description: 'ИНН уже занят', example: 'Организация с таким ИНН уже есть' } };
    const narrower = { 404: { description: 'Организации нет, или контакт не из неё', example: 'Контакт не найден' } };

    const operation = organizationRoute({ summary: 'Изменить', ok, also: { ...conflict, ...narrower } });

    expect(operation).toEqual(route(tag, { ...record, summary: 'Изменить', ok, also: { ...conflict, ...narrower } }));
    expect(Object.keys(operation.responses ?? {})).toEqual(['200', '400', '401', '403', '404', '409']);
    expect(operation.responses?.['404']).toMatchObject({ description: 'Организации нет, или контакт не из неё' });
  });

  it('lets a route of the family say otherwise: other roles, a refusal it never gives', () => {
    const organizationRoute = routesOf(tag, record);

    const operation = organizationRoute({ summary: 'Организация', access: ['ADMIN'], ok, without: [403] });

    expect(operation).toEqual(route(tag, { ...record, summary: 'Организация', access: ['ADMIN'], ok, without: [403] }));
    expect(operation['x-roles']).toEqual(['ADMIN']);
    expect(operation.responses?.['403']).toBeUndefined();
  });
});

describe('fileAnswer', () => {
  it('answers 200 with the bytes of a file of the given media type', () => {
    const operation = route(tag, { summary: 'Акт', access: ['ADMIN'], ok: fileAnswer('PDF', 'application/pdf') });

    expect(operation.responses?.['200']).toEqual({ description: 'PDF', content: { 'application/pdf': { schema: binary } } });
  });
});

describe('a versioned write', () => {
  const body = z.object({ name: z.string() }).strict();
  const write = { summary: 'Изменить', access: ['ADMIN'] as const, body, ok, versioned: true as const };

  it('documents 412 for a stale version and 428 for none, each with its Russian message, and takes `version` in the body', () => {
    const operation = route(tag, { ...write, example: { name: 'ООО Ромашка', version: 3 } });

    expect(operation.responses?.['412']).toMatchObject({
      content: { 'application/json': { example: { statusCode: 412, message: MSG.staleDocument } } },
    });
    expect(operation.responses?.['428']).toMatchObject({
      content: { 'application/json': { example: { statusCode: 428, message: MSG.versionRequired } } },
    });
    const { schema } = (operation.requestBody as { content: Record<string, { schema: z.ZodType }> }).content['application/json'];
    expect(schema.safeParse({ name: 'ООО Ромашка', version: 3 }).success).toBe(true);
    expect(operation.description).toContain('428');
  });

  it('refuses an example without its version, since an integrator copying it would get 428', () => {
    expect(() => route(tag, { ...write, example: { name: 'ООО Ромашка' } })).toThrow('version');
  });
});
