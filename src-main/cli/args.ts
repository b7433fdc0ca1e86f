/** Argument parsing for `cairn` subcommands on node:util parseArgs, with errors that exit 2. */
import { parseArgs } from 'node:util';

/** Bad or missing arguments: the dispatcher prints the message and the command's usage, then exits 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export type OptionSpec = Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }>;

type OptionValue<S extends OptionSpec[string]> = S['type'] extends 'boolean'
  ? boolean
  : S['multiple'] extends true
    ? string[]
    : string;

export interface ParsedCommandArgs<O extends OptionSpec> {
  values: { [K in keyof O]?: OptionValue<O[K]> };
  positionals: string[];
}

export function parseCommandArgs<O extends OptionSpec>(
  args: string[],
  options: O,
  positionals: { min: number; max: number; names: string },
): ParsedCommandArgs<O> {
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    // Node appends advice about `--` to unknown options; the usage line printed after says enough.
    throw new UsageError(
      (error as Error).message.replace(/\. To specify a positional argument[\s\S]*$/, '.'),
    );
  }
  const count = parsed.positionals.length;
  if (count < positionals.min) throw new UsageError(`Missing ${positionals.names}.`);
  if (count > positionals.max)
    throw new UsageError(`Unexpected argument "${parsed.positionals[positionals.max]}".`);
  return { values: parsed.values as ParsedCommandArgs<O>['values'], positionals: parsed.positionals };
}

/** A whole number within bounds, from a flag value. */
export function parseIntegerFlag(
  value: string | undefined,
  flag: string,
  bounds: { min: number; max: number; fallback: number },
): number {
  if (value === undefined) return bounds.fallback;
  const number = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || number < bounds.min || number > bounds.max) {
    throw new UsageError(
      `${flag} must be a whole number from ${bounds.min} to ${bounds.max}, not "${value}".`,
    );
  }
  return number;
}

export function parseModeArgument(value: string | undefined, what: string): 'rag' | 'direct' | undefined {
  if (value === undefined) return undefined;
  if (value === 'rag' || value === 'direct') return value;
  throw new UsageError(`${what} must be "rag" or "direct", not "${value}".`);
}
