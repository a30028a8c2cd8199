import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { describeLuaSyntaxError } from '../../../common/lua-syntax.ts';
import {
  type CheckSyntaxResponse,
  CheckSyntaxResponseSchema,
  CheckSyntaxSchema,
} from '../../../common/scripts.ts';
import type { FeatureOptions } from '../../context.ts';
import { responses } from '../../plugins/responses.ts';
import { checkLuaSyntax } from './lua-syntax-checker.ts';

/** Like a save's: JSON may escape 1 MiB of Lua to several times its size; the schema caps the content. */
const CHECK_BODY_LIMIT = 8 * 1024 * 1024;

/**
 * The editor's live syntax check. It asks the server rather than parsing in the browser, so the
 * editor and the save agree by construction and the page does not download 3 MB of WebAssembly.
 */
export const syntaxCheckRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app) => {
  app.post(
    '/api/admin/scripts/check-syntax',
    {
      bodyLimit: CHECK_BODY_LIMIT,
      schema: {
        summary: 'Check Lua source with the parser a save uses: ok, or where it breaks',
        body: CheckSyntaxSchema,
        response: responses({ 200: CheckSyntaxResponseSchema }),
      },
    },
    async (request): Promise<CheckSyntaxResponse> => {
      const syntaxError = await checkLuaSyntax(request.body.content);
      return syntaxError
        ? { ok: false, error: describeLuaSyntaxError(syntaxError), syntaxError }
        : { ok: true };
    },
  );
};
