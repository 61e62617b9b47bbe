// /api/openapi.json (OpenAPI 3.1), generated from the operations the API is built from
// (server/http/api.ts, server/http/ad-images.ts, server/http/broadcasting.ts, server/http/auth-endpoints.ts) with Zod's own
// JSON Schema output: parameters as the routes read them (`io: 'input'`), answers as they are
// sent (`io: 'output'`). Schemas with an `id` (server/http/api-schemas.ts) become components.
import { z } from 'zod';
import type { ApiOperation, ErrorStatus } from './api-route.ts';
import { ApiError } from './api-schemas.ts';

type Json = Record<string, unknown>;

const ERROR_DESCRIPTIONS: Record<ErrorStatus, string> = {
  400: 'Malformed request',
  401: 'Not signed in',
  403: 'Signed in, but not allowed',
  404: 'Not found',
  410: 'Gone: the link has expired',
  413: 'Body too large',
  415: 'Unsupported body type',
  419: 'Missing or wrong X-XSRF-TOKEN (the anti-forgery token)',
  422: 'Invalid input: messages by field under `errors`',
  429: 'Too many requests; try again after Retry-After seconds',
};

const RETRY_AFTER = { description: 'Seconds to wait', schema: { type: 'integer', minimum: 0 } };

const LOCALE_HEADER = {
  name: 'X-Locale',
  in: 'header',
  description: 'Language of messages; else Accept-Language; default ar',
  schema: { type: 'string', enum: ['ar', 'en'] },
};
const XSRF_HEADER = {
  name: 'X-XSRF-TOKEN',
  in: 'header',
  required: true,
  description: 'Equal to the XSRF-TOKEN cookie (GET /csrf-cookie sets it)',
  schema: { type: 'string' },
};

/** Zod's bounds of a plain `z.int()`: true of every JavaScript integer, noise in a description. */
const SAFE_INTEGER_BOUNDS = new Set([Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER]);

class SchemaWriter {
  readonly components: Record<string, Json> = {};

  /** The JSON Schema of a Zod schema; schemas with an id are moved to components and referenced. */
  write(schema: z.ZodType, io: 'input' | 'output'): Json {
    const generated = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io,
      unrepresentable: 'any',
      override: ({ jsonSchema }) => {
        if (SAFE_INTEGER_BOUNDS.has(jsonSchema.minimum as number)) delete jsonSchema.minimum;
        if (SAFE_INTEGER_BOUNDS.has(jsonSchema.maximum as number)) delete jsonSchema.maximum;
      },
    }) as Json;
    const { $schema: _, $defs, ...rest } = generated;
    for (const [id, def] of Object.entries(($defs ?? {}) as Record<string, Json>)) {
      const written = toComponentRefs(def);
      const known = this.components[id];
      if (known && JSON.stringify(known) !== JSON.stringify(written)) {
        throw new Error(`OpenAPI component ${id} differs between its uses (input and output?)`);
      }
      this.components[id] = written;
    }
    return toComponentRefs(rest);
  }
}

function toComponentRefs(schema: Json): Json {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/$defs/', '"#/components/schemas/'));
}

/** `/posts/:id/card` → `/posts/{id}/card`. */
export function openApiPath(expressPath: string): string {
  return expressPath.replace(/:(\w+)/g, '{$1}');
}

function parameter(writer: SchemaWriter, name: string, where: 'path' | 'query', schema: z.ZodType): Json {
  const { description, ...rest } = writer.write(schema, 'input');
  return {
    name,
    in: where,
    ...(where === 'path' ? { required: true } : {}),
    ...(description ? { description } : {}),
    schema: rest,
  };
}

function operationObject(writer: SchemaWriter, op: ApiOperation): Json {
  const writes = op.method !== 'get' && op.xsrf !== false;
  const parameters: Json[] = [
    ...Object.entries(op.params?.shape ?? {}).map(([name, s]) => parameter(writer, name, 'path', s as z.ZodType)),
    ...Object.entries(op.query ?? {}).map(([name, s]) => parameter(writer, name, 'query', s)),
    ...(writes ? [XSRF_HEADER] : []),
    LOCALE_HEADER,
  ];
  const responses: Record<string, Json> = {
    [op.ok.status]: {
      description: op.ok.description,
      ...(op.ok.headers
        ? {
            headers: Object.fromEntries(
              Object.entries(op.ok.headers).map(([name, h]) => [
                name,
                { description: h.description, schema: writer.write(h.schema, 'output') },
              ]),
            ),
          }
        : {}),
      ...(op.ok.schema ? { content: { 'application/json': { schema: writer.write(op.ok.schema, 'output') } } } : {}),
    },
  };
  const errors: Partial<Record<ErrorStatus, string>> = {
    ...(writes ? { 419: ERROR_DESCRIPTIONS[419] } : {}),
    ...op.errors,
  };
  const errorSchema = writer.write(ApiError, 'output');
  for (const [status, description] of Object.entries(errors)) {
    responses[status] = {
      description: description || ERROR_DESCRIPTIONS[Number(status) as ErrorStatus],
      ...(status === '429' ? { headers: { 'Retry-After': RETRY_AFTER } } : {}),
      content: { 'application/json': { schema: errorSchema } },
    };
  }
  return {
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    parameters,
    ...(op.body
      ? {
          requestBody: {
            required: true,
            content: { [op.body.contentType]: { schema: writer.write(op.body.schema, 'input') } },
          },
        }
      : {}),
    responses,
  };
}

/** The document of these operations (paths below /api), without `servers`. */
export function openApiDocument(operations: readonly ApiOperation[]) {
  const writer = new SchemaWriter();
  const paths: Record<string, Record<string, Json>> = {};
  for (const op of operations) {
    const path = openApiPath(op.path);
    paths[path] ??= {};
    if (paths[path][op.method]) throw new Error(`Two operations for ${op.method.toUpperCase()} ${op.path}`);
    paths[path][op.method] = operationObject(writer, op);
  }
  return {
    openapi: '3.1.0' as const,
    info: {
      title: 'Souq API',
      version: '1.0.0',
      description:
        'JSON API of Souq for the web client and mobile apps. Lists answer `{data: [...]}`; errors `{message, errors?}` in the language of X-Locale or Accept-Language. Every state-changing request must send the X-XSRF-TOKEN header equal to the XSRF-TOKEN cookie (GET /api/csrf-cookie sets it); a mismatch answers 419. PUT/PATCH/DELETE may be sent as POST with `_method` in form data.',
    },
    paths,
    components: { schemas: writer.components },
  };
}
