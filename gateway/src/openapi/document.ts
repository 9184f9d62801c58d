import { createDocument } from 'zod-openapi';
import { privacyPaths } from './paths/privacy';
import { gatewayPaths } from './paths/gateway';
import { auditApi } from '@portal/svc-audit/routes/api';
import { authApi } from '@portal/svc-auth/routes/api';
import { contentApi } from '@portal/svc-content/routes/api';
import { crmApi } from '@portal/svc-crm/routes/api';
import { progressApi } from '@portal/svc-progress/routes/api';
import { progressScormApi } from '@portal/svc-progress/routes/scorm/api';
import { declaredPaths } from './declared';
import { TAGS } from './tags';

type OpenApiDocument = ReturnType<typeof createDocument>;

let built: OpenApiDocument | undefined;

/**
 * The OpenAPI 3.1 description of the portal's public API, assembled from the route declarations each
 * service exports (its `routes/api.ts`) and, for the gateway's own routes and the privacy ones it
 * answers, the modules of `paths/*.ts`, whose schemas are the zod contracts the services validate
 * with. Built once, on first use.
 */
export function openApiDocument(): OpenApiDocument {
  built ??= createDocument(
    {
      openapi: '3.1.0',
      info: {
        title: 'Учебный портал: API',
        version: '0.1.0',
        description:
          'API — под `/api` шлюза (пробы `/healthz` и `/readyz` — у корня). ' +
          'Ошибки — JSON `{message, statusCode}` с сообщением по-русски (и `field`, когда виновато одно поле). ' +
          'Вход: `POST /api/auth/login` даёт токен, его передают в заголовке `Authorization: Bearer <токен>`. ' +
          'Роли, которым открыт адрес, — в описании и в поле `x-roles` операции.',
      },
      servers: [{ url: '/' }],
      tags: Object.values(TAGS).map((t) => ({ ...t })),
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'Токен из ответа входа или регистрации; выход завершает его сеанс во всех сервисах.',
          },
        },
      },
      security: [{ bearer: [] }],
      paths: {
        ...declaredPaths(TAGS.auth.name, authApi),
        ...declaredPaths(TAGS.content.name, contentApi),
        ...declaredPaths(TAGS.progress.name, progressScormApi),
        ...declaredPaths(TAGS.progress.name, progressApi),
        ...declaredPaths(TAGS.crm.name, crmApi),
        ...declaredPaths(TAGS.audit.name, auditApi),
        ...privacyPaths,
        ...gatewayPaths,
      },
    },
    {
      // The contracts' custom checks are all ids (isValidId and friends): strings on the wire.
      override: ({ zodSchema, jsonSchema }) => {
        if (zodSchema._zod.def.type === 'custom') jsonSchema.type = 'string';
      },
    },
  );
  return built;
}
