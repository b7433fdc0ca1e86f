import { resolve } from 'node:path';
import type { ConnectionUpdate, Platform } from '@shared/models';
import { PLATFORM_INFO, type CredentialField } from '@shared/platforms';
import { parseCommandArgs, UsageError, type OptionSpec } from '../args';
import type { CliCommand } from '../command';
import { report } from '../output';
import { resolveConnection } from '../resolve-connection';
import { secretEnvName } from './add';

function flagName(field: CredentialField): string {
  return field.flag.replace(/^--/, '');
}

/** Every platform's field flags: which ones fit is known only once the connection is found. */
function fieldOptions(): OptionSpec {
  const spec: OptionSpec = {};
  for (const info of Object.values(PLATFORM_INFO))
    for (const field of info.fields) spec[flagName(field)] = { type: 'string' };
  return spec;
}

/** The edit the flags ask for, checked against the connection's own platform. */
export function editFromFlags(
  id: string,
  platform: Platform,
  values: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
): ConnectionUpdate {
  const fields = PLATFORM_INFO[platform].fields;
  const foreign = Object.keys(fieldOptions()).filter(
    (key) => values[key] !== undefined && !fields.some((field) => flagName(field) === key),
  );
  if (foreign.length > 0)
    throw new UsageError(
      `${foreign.map((key) => `--${key}`).join(', ')} ${foreign.length === 1 ? 'is not an option' : 'are not options'} for ${platform}.`,
    );
  const update: ConnectionUpdate = { id, config: {}, secrets: {} };
  if (typeof values['name'] === 'string') update.name = values['name'];
  for (const field of fields) {
    const given = values[flagName(field)];
    const fromEnv =
      field.secret && values['secrets-from-env'] === true ? env[secretEnvName(field)] : undefined;
    const value = typeof given === 'string' ? given : fromEnv;
    if (value === undefined) continue;
    if (field.secret) {
      if (value === '')
        throw new UsageError(`${field.flag} is empty: leave it out to keep the stored value.`);
      update.secrets![field.key] = value;
    } else update.config![field.key] = field.key === 'path' && value !== '' ? resolve(value) : value;
  }
  const clear = clearedFields(platform, values['clear']);
  if (clear.length > 0) update.clearSecrets = clear;
  if (
    update.name === undefined &&
    Object.keys(update.config!).length + Object.keys(update.secrets!).length + clear.length === 0
  ) {
    throw new UsageError(
      `Nothing to change: give --name or one of ${fields.map((field) => field.flag).join(', ')}${fields.some((field) => field.secret) ? ' (or --secrets-from-env)' : ''}.`,
    );
  }
  return update;
}

/** `--clear <flag>` names a stored secret field to remove, e.g. `--clear user-refresh-token` (core refuses a required one). */
function clearedFields(platform: Platform, given: unknown): string[] {
  const names = Array.isArray(given) ? (given as string[]) : [];
  const fields = PLATFORM_INFO[platform].fields;
  return names.map((name) => {
    const field = fields.find((candidate) => flagName(candidate) === name.replace(/^--/, ''));
    if (!field)
      throw new UsageError(
        `--clear takes a field flag of ${platform} (e.g. ${fields.find((candidate) => candidate.secret)?.flag ?? fields[0]?.flag}), not "${name}".`,
      );
    if (!field.secret)
      throw new UsageError(
        `${field.flag} is not a secret: clear it with ${field.flag} "" instead of --clear.`,
      );
    return field.key;
  });
}

export const editCommand: CliCommand = {
  name: 'edit',
  summary: "Change a connection's name, settings or credentials (its index is kept)",
  usage: [
    'cairn edit <connection> [--name <name>] [field flags] [--clear <secret flag>] [--secrets-from-env] [--json]',
    'Field flags are the ones `cairn add` takes for the platform (folders: --path). A flag left out keeps',
    'the stored value; --base-url "" goes back to the default; an on/off option takes true or false',
    '(e.g. DingTalk: --stream-events true). --secrets-from-env reads the secret fields',
    'from CAIRN_* variables (e.g. CAIRN_TOKEN), keeping them out of shell history. --clear removes a',
    'stored optional secret (Feishu: --clear user-refresh-token; `cairn sign-out` also stops a sync first).',
    'Refused while the connection syncs. A failed sync stays shown until `cairn test` or `cairn sync` succeeds.',
  ].join('\n'),
  async run(args, context) {
    const spec: OptionSpec = {
      name: { type: 'string' },
      json: { type: 'boolean' },
      'secrets-from-env': { type: 'boolean' },
      clear: { type: 'string', multiple: true },
      ...fieldOptions(),
    };
    const { values, positionals } = parseCommandArgs(args, spec, {
      min: 1,
      max: 1,
      names: 'the <connection>',
    });
    const json = (values as Record<string, unknown>)['json'] === true;
    const { api } = await context.open();
    const found = await resolveConnection(api, positionals[0] ?? '');
    if (!found.ok) return report(context, json, found, () => '');
    const update = editFromFlags(
      found.value.id,
      found.value.platform,
      values as Record<string, unknown>,
      context.env,
    );
    const changed = [
      ...(update.name !== undefined ? ['name'] : []),
      ...Object.keys(update.config ?? {}),
      ...Object.keys(update.secrets ?? {}),
      ...(update.clearSecrets ?? []).map((key) => `${key} removed`),
    ];
    return report(context, json, await api.connections.update(update), (view) =>
      [
        `Updated "${view.name}" (id ${view.id}): ${changed.join(', ')}. Its index is kept.`,
        view.syncStatus === 'failed' ? `Check it with: cairn test ${JSON.stringify(view.name)}` : null,
      ]
        .filter(Boolean)
        .join('\n'),
    );
  },
};
