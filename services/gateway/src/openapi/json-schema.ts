import { z } from 'zod';

/** A JSON Schema (2020-12, OpenAPI 3.1's dialect) as a plain object. */
export type JsonSchema = Record<string, unknown>;

/**
 * The JSON Schema of a zod schema: `input` for what a client sends (defaults make fields
 * optional), `output` for what the API answers. Refinements and custom checks cannot be
 * expressed and are left out: the description says what they check.
 */
export function schemaOf(schema: z.ZodType, io: 'input' | 'output' = 'output'): JsonSchema {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  return json;
}

/**
 * A command payload's schema as a request body: the fields the gateway fills in itself
 * (path ids, `fromXml`, the view generation) removed. Works on the JSON Schema, so refined
 * objects (which zod cannot `omit` from) derive the same way.
 */
export function bodyOf(payload: z.ZodType, gatewayFields: readonly string[]): JsonSchema {
  const json = schemaOf(payload, 'input');
  const properties = { ...(json['properties'] as Record<string, JsonSchema>) };
  for (const field of gatewayFields) {
    if (!(field in properties)) throw new Error(`bodyOf: the payload has no field ${field}`);
    delete properties[field];
  }
  const { required: allRequired, ...rest } = json;
  const required = ((allRequired as string[] | undefined) ?? []).filter((name) => !gatewayFields.includes(name));
  return required.length > 0 ? { ...rest, properties, required } : { ...rest, properties };
}

/** One field of a payload's JSON Schema (a query parameter's, say). */
export function fieldOf(payload: z.ZodType, field: string): JsonSchema {
  const properties = schemaOf(payload, 'input')['properties'] as Record<string, JsonSchema> | undefined;
  const schema = properties?.[field];
  if (!schema) throw new Error(`fieldOf: the payload has no field ${field}`);
  return schema;
}

/** Whether two types are the same, both ways: a view's schema must describe its interface exactly. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/**
 * A zod schema describing a view interface of the contracts (types only, so they cannot be
 * derived): `viewSchema<DispatchView>()(z.strictObject({…}))` fails to compile when the two
 * drift apart.
 */
export function viewSchema<View>() {
  return <S extends z.ZodType>(schema: S & (Same<z.output<S>, View> extends true ? unknown : { mismatch: View })): S => schema;
}
