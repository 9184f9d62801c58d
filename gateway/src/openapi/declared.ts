import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from 'zod-openapi';
import { rolesOf, type Answer, type RouteDeclaration } from '@portal/service-kit';
import { route } from './route';

/** `/api/users/:id` as the document writes it: `/api/users/{id}`. */
const documentPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

/** Adds the further media types an answer may come as to its documented content. */
function addMediaTypes(operation: ZodOpenApiOperationObject, status: number, answer: Answer | undefined) {
  if (!answer?.alsoAs) return;
  const response = operation.responses?.[String(status) as `2${string}`] as { content?: Record<string, unknown> };
  for (const [mediaType, schema] of Object.entries(answer.alsoAs))
    response.content = { ...response.content, [mediaType]: { schema } };
}

/**
 * A route's operation from its declaration in the service: the refusals are written as for every
 * other route (`route`), its rate limit adds its 429, and it is named by its `operationId`.
 */
export function declaredOperation(tag: string, declaration: RouteDeclaration): ZodOpenApiOperationObject {
  const { method: _method, path: _path, operationId, access, rateLimit, audit: _audit, streamedBody, ...doc } = declaration;
  const operation = route(tag, {
    ...doc,
    // A streamed body is documented as any other: the router's not parsing it is no client's concern.
    ...(streamedBody ? { body: streamedBody.schema, bodyMediaType: streamedBody.mediaType } : {}),
    access: rolesOf(access),
    also: rateLimit ? { 429: rateLimit.refusal, ...doc.also } : doc.also,
  });
  addMediaTypes(operation, doc.ok.status, doc.ok);
  for (const [status, answer] of Object.entries(doc.alsoOk ?? {})) addMediaTypes(operation, Number(status), answer);
  return { operationId, ...operation };
}

/** A service's declared routes as paths of the document, under the service's tag. */
export function declaredPaths(tag: string, declarations: readonly RouteDeclaration[]): ZodOpenApiPathsObject {
  const paths: ZodOpenApiPathsObject = {};
  for (const declaration of declarations) {
    const method = declaration.method.toLowerCase() as 'get';
    paths[documentPath(declaration.path)] = {
      ...paths[documentPath(declaration.path)],
      [method]: declaredOperation(tag, declaration),
    };
  }
  return paths;
}
