import type { ConnectionView, NewConnection, Platform } from '@shared/models';
import { PLATFORM_INFO, type CredentialField } from '@shared/platforms';
import { parseCommandArgs, parseModeArgument, UsageError, type OptionSpec } from '../args';
import type { CliCommand } from '../command';
import { report } from '../output';

const PLATFORMS = ['feishu', 'lark', 'yuque', 'dingtalk', 'ima'] as const satisfies readonly Platform[];

/** Secrets may come from the environment instead of flags, keeping them out of shell history and `ps`. */
export function secretEnvName(field: CredentialField): string {
  return `CAIRN_${field.key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()}`;
}

function flagName(field: CredentialField): string {
  return field.flag.replace(/^--/, '');
}

function platformUsage(): string {
  return PLATFORMS.map((platform) => {
    const fields = PLATFORM_INFO[platform].fields.map((field) => {
      const text = field.type === 'boolean' ? field.flag : `${field.flag} <${field.key}>`;
      return field.required ? text : `[${text}]`;
    });
    return `  ${platform.padEnd(9)}${fields.join(' ')}`;
  }).join('\n');
}

export const addCommand: CliCommand = {
  name: 'add',
  summary: 'Add a Feishu, Lark, Yuque, DingTalk or IMA connection',
  usage: [
    'cairn add <feishu|lark|yuque|dingtalk|ima> --name <name> [--mode rag|direct] <credential flags> [--json]',
    'Credential flags per platform:',
    platformUsage(),
    'Secret flags can be left out and given as environment variables instead (e.g. CAIRN_APP_SECRET, CAIRN_TOKEN, CAIRN_API_KEY).',
  ].join('\n'),
  async run(args, context) {
    const spec: OptionSpec = {
      name: { type: 'string' },
      mode: { type: 'string' },
      json: { type: 'boolean' },
    };
    for (const platform of PLATFORMS)
      for (const field of PLATFORM_INFO[platform].fields)
        spec[flagName(field)] = { type: field.type === 'boolean' ? 'boolean' : 'string' };
    const { values, positionals } = parseCommandArgs(args, spec, {
      min: 1,
      max: 1,
      names: 'the platform (feishu, lark, yuque, dingtalk or ima)',
    });
    const platform = PLATFORMS.find((candidate) => candidate === positionals[0]);
    if (!platform) {
      throw new UsageError(
        positionals[0] === 'folder'
          ? 'Use `cairn add-folder <path>` for local folders.'
          : `Unknown platform "${positionals[0]}".`,
      );
    }
    const fields = PLATFORM_INFO[platform].fields;
    const foreign = Object.keys(values).filter(
      (key) => !['name', 'mode', 'json'].includes(key) && !fields.some((field) => flagName(field) === key),
    );
    if (foreign.length > 0)
      throw new UsageError(
        `${foreign.map((key) => `--${key}`).join(', ')} ${foreign.length === 1 ? 'is not an option' : 'are not options'} for ${platform}.`,
      );
    const name = values['name'];
    if (typeof name !== 'string' || !name.trim()) throw new UsageError('Missing --name <name>.');

    const input: NewConnection = {
      platform,
      name,
      mode: parseModeArgument(values['mode'], '--mode') ?? 'rag',
      config: {},
      secrets: {},
    };
    const missing: string[] = [];
    for (const field of fields) {
      const given = values[flagName(field)];
      if (field.type === 'boolean') {
        if ((given as unknown) === true) input.config[field.key] = true;
        continue;
      }
      const value =
        typeof given === 'string' ? given : field.secret ? context.env[secretEnvName(field)] : undefined;
      if (value !== undefined && value !== '')
        (field.secret ? input.secrets : input.config)[field.key] = value;
      else if (field.required)
        missing.push(field.secret ? `${field.flag} (or ${secretEnvName(field)})` : field.flag);
    }
    if (missing.length > 0) throw new UsageError(`Missing ${missing.join(', ')} for ${platform}.`);

    const { api } = await context.open();
    return report(
      context,
      (values as Record<string, unknown>)['json'] === true,
      await api.connections.add(input),
      addedText,
    );
  },
};

/** What `cairn add` prints about the connection it made. */
export function addedText(view: ConnectionView): string {
  return [
    `Added ${PLATFORM_INFO[view.platform].label.en} connection "${view.name}" (id ${view.id}, ${view.mode} mode).`,
    view.directOnly
      ? 'No full text from this platform for this connection: it is searched live (direct mode) and cannot be indexed.'
      : null,
    view.experimental ? 'Note: this platform is experimental.' : null,
    `Check its credentials with: cairn test ${JSON.stringify(view.name)}`,
    view.userAuth === 'none'
      ? `For search and My Library, sign in with: cairn authorize ${JSON.stringify(view.name)}`
      : null,
  ]
    .filter(Boolean)
    .join('\n');
}
