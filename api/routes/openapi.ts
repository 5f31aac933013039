// GET /openapi.json: the OpenAPI 3.1 document of the service (api/openapi/document.ts).
import type { H3 } from 'h3';
import type { AppContext } from '../context.ts';
import { openApiDocument } from '../openapi/document.ts';

export function openApiRoutes(app: H3, ctx: AppContext) {
  // The document only depends on configuration: build it once.
  const doc = openApiDocument(ctx.config.baseUrl);
  app.get('/openapi.json', () => doc);
}
