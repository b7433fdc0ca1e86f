/**
 * The frames a client may send, checked by the instance (instance-host.ts) before it acts on one.
 * A file of its own so that clients, which only write these frames, never load zod
 * (docs/decisions/cli-startup.md).
 */
import { z } from 'zod';

const id = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);

export const clientFrame = z.discriminatedUnion('t', [
  z.strictObject({
    t: z.literal('hello'),
    v: z.number().int(),
    token: z.string().max(200),
    client: z.strictObject({ kind: z.string().max(40), pid: z.number().int() }),
  }),
  z.strictObject({ t: z.literal('call'), id, channel: z.string().max(200), input: z.unknown().optional() }),
  z.strictObject({ t: z.literal('cancel'), id }),
  z.strictObject({ t: z.literal('yield') }),
]);
export type ClientFrame = z.infer<typeof clientFrame>;
