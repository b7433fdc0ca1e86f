/**
 * A Yuque server whose every answer is generated from the official OpenAPI spec
 * (../shared/yuque-openapi.json): the 200 schema of the endpoint asked for, walked property by
 * property ($ref, oneOf, enums, formats), and the JSON examples the spec gives in field
 * descriptions (body_sheet's sheet, body_table's data table where the example parses). It knows
 * nothing of Yuque beyond the spec, so a connector that syncs against it relies on no field the
 * spec does not declare; and since the spec marks no field required, the `minimal` shape answers
 * every object with no fields at all.
 *
 * Shapes:
 * - 'full': every declared property, arrays of two items, ids unique per answer.
 * - 'minimal': every object `{}` and every array empty or of empty objects, as the spec allows.
 */
import { readFileSync } from 'node:fs';
import { startFakeServer, FaultInjector, type FakeResponse, type RecordedRequest } from './fake-server';

type Schema = {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  oneOf?: Schema[];
  items?: Schema;
  properties?: Record<string, Schema>;
  description?: string;
};
type Spec = {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: Schema }> }> }>
  >;
  components: { schemas: Record<string, Schema> };
};

export type SpecShape = 'full' | 'minimal';

export interface YuqueSpecServer {
  baseUrl: string;
  /** The spec's path templates answered so far, e.g. "/api/v2/repos/{book_id}/toc". */
  templatesServed(): string[];
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** The first ```json block of a description that parses, if any (the spec's inline examples). */
function exampleOf(description: string | undefined): unknown {
  for (const match of (description ?? '').matchAll(/```json\s*([\s\S]*?)```/g)) {
    try {
      return JSON.parse(match[1]!);
    } catch {
      // the data-table example carries comments: not JSON
    }
  }
  return undefined;
}

class Generator {
  private counter = 0;
  constructor(
    private readonly spec: Spec,
    private readonly shape: SpecShape,
  ) {}

  private resolve(schema: Schema): Schema {
    if (!schema.$ref) return schema;
    const name = schema.$ref.replace('#/components/schemas/', '');
    return this.spec.components.schemas[name] ?? {};
  }

  value(raw: Schema, name: string, depth: number): unknown {
    const schema = this.resolve(raw);
    if (schema.oneOf) return this.value(schema.oneOf[this.counter % schema.oneOf.length]!, name, depth);
    if (schema.enum) return schema.enum[this.counter++ % schema.enum.length];
    switch (schema.type) {
      case 'object': {
        if (this.shape === 'minimal' || depth > 3) return {};
        const out: Record<string, unknown> = {};
        for (const [key, property] of Object.entries(schema.properties ?? {}))
          out[key] = this.value(property, key, depth + 1);
        return out;
      }
      case 'array': {
        if (this.shape === 'minimal') return depth === 1 ? [{}] : [];
        return [0, 1].map(() => this.value(schema.items ?? {}, name, depth + 1));
      }
      case 'integer':
      case 'number':
        return ++this.counter;
      case 'boolean':
        return this.counter++ % 2 === 0;
      case 'string': {
        if (this.shape === 'minimal') return '';
        const example = exampleOf(schema.description);
        if (example !== undefined) return JSON.stringify(example);
        if (schema.format === 'date-time')
          return new Date(Date.UTC(2025, 0, 1, 0, 0, ++this.counter)).toISOString();
        return `${name} ${++this.counter}`;
      }
      default:
        return null;
    }
  }
}

/** Which spec path template a request path fits (most specific first: literal segments win). */
function templateOf(spec: Spec, path: string): string | undefined {
  const segments = path.split('/').filter(Boolean);
  const candidates = Object.keys(spec.paths).filter((template) => {
    const parts = template.split('/').filter(Boolean);
    return (
      parts.length === segments.length &&
      parts.every((part, i) => part.startsWith('{') || part === segments[i])
    );
  });
  const literal = (template: string) => template.split('/').filter((part) => !part.startsWith('{')).length;
  return candidates.sort((a, b) => literal(b) - literal(a))[0];
}

export async function startYuqueSpecServer(options: {
  specPath: string;
  shape: SpecShape;
  token?: string;
}): Promise<YuqueSpecServer> {
  const spec = JSON.parse(readFileSync(options.specPath, 'utf8')) as Spec;
  const token = options.token ?? 'yuque-spec-token-0123456789';
  const served = new Set<string>();
  const server = await startFakeServer({
    faults: new FaultInjector(),
    renderFault: () => ({ status: 500, body: { message: 'Internal Server Error' } }),
    handle: (request): FakeResponse => {
      if (request.headers['x-auth-token'] !== token)
        return { status: 401, body: { message: 'Unauthorized' } };
      const template = templateOf(spec, request.path);
      const operation = template ? spec.paths[template]?.[request.method.toLowerCase()] : undefined;
      const schema = operation?.responses['200']?.content?.['application/json']?.schema;
      if (!template || !schema) return { status: 404, body: { message: 'Not Found' } };
      served.add(template);
      // A fresh generator per answer: ids restart, as pages of a real listing would not; the
      // connector must cope with what the spec allows either way.
      return { status: 200, body: new Generator(spec, options.shape).value(schema, 'body', 0) };
    },
  });
  return {
    baseUrl: `${server.origin}/api/v2`,
    templatesServed: () => [...served].sort(),
    requests: server.requests,
    close: server.close,
  };
}
