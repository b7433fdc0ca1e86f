/**
 * The one schema of a new connection and of an edit (STYLE.md §14): the transports validate
 * arguments with it, connection-fields.ts checks the platform's fields on top of it, and the
 * repository checks a name with the same rule. The form takes its length limit from
 * CONNECTION_NAME_MAX_LENGTH. Bounds keep a hostile or buggy caller from pushing megabytes into
 * core through one field.
 */
import { z } from 'zod';
import { CONNECTION_NAME_MAX_LENGTH, PLATFORMS } from '@shared/models';
import { CairnError } from '../errors';

/** A name as stored: whitespace runs collapsed, trimmed, 1 to CONNECTION_NAME_MAX_LENGTH characters, no control characters. */
export const connectionName = z
  .string()
  .transform((name) => name.replace(/\s+/g, ' ').trim())
  .pipe(
    z
      .string()
      .min(1, 'A connection needs a name.')
      .max(
        CONNECTION_NAME_MAX_LENGTH,
        `A connection name may have at most ${CONNECTION_NAME_MAX_LENGTH} characters.`,
      )
      .refine(
        (name) => !/[\u0000-\u001f\u007f]/.test(name),
        'A connection name may not contain control characters.',
      ),
  );

const configValue = z.union([z.string().max(4_000), z.number().finite(), z.boolean()]);
export const connectionConfig = z
  .record(z.string().max(100), configValue)
  .refine((value) => Object.keys(value).length <= 50, 'too many config fields');
export const connectionSecrets = z
  .record(z.string().max(100), z.string().max(8_000))
  .refine((value) => Object.keys(value).length <= 20, 'too many secret fields');
export const connectionMode = z.enum(['rag', 'direct']);

export const newConnectionSchema = z.strictObject({
  platform: z.enum(PLATFORMS),
  name: connectionName,
  mode: connectionMode,
  config: connectionConfig,
  secrets: connectionSecrets,
});

export const connectionUpdateSchema = z.strictObject({
  id: z.string().trim().min(1).max(200),
  name: connectionName.optional(),
  config: connectionConfig.optional(),
  secrets: connectionSecrets.optional(),
  clearSecrets: z.array(z.string().max(100)).max(20).optional(),
});

/** The stored form of a name, or INVALID_ARGUMENT with the rule it broke. */
export function checkConnectionName(name: unknown): string {
  const result = connectionName.safeParse(name);
  if (result.success) return result.data;
  throw new CairnError('INVALID_ARGUMENT', result.error.issues[0]?.message ?? 'A connection needs a name.');
}
