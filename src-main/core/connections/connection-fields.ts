/**
 * A connection's fields checked against its platform's declared ones (PLATFORM_INFO): a new
 * connection, and an edit of a saved one, which is laid over what is stored and then checked
 * exactly like a new connection, so an edit can never save what `add` would have refused.
 * Pure: no I/O.
 */
import type { ConnectionUpdate, ConnectionView, NewConnection, Platform } from '@shared/models';
import { PLATFORM_INFO } from '@shared/platforms';
import { scopeListProblem } from '../connectors/feishu/feishu-sign-in';
import { CairnError } from '../errors';
import { parseInput } from '../validation';
import { connectionUpdateSchema, newConnectionSchema } from './connection-schema';

/** Checks a new connection against its platform's declared fields; secrets never sit in config. */
export function checkNewConnection(input: NewConnection): NewConnection {
  const parsed = parseInput(newConnectionSchema, input, 'connection');
  const { clean, problems } = reviewFields(parsed);
  if (problems.length > 0) throw invalid(parsed.platform, problems);
  return clean;
}

/** The connection with empty fields dropped and values trimmed, and every problem found in it. */
function reviewFields(parsed: NewConnection): { clean: NewConnection; problems: string[] } {
  const info = PLATFORM_INFO[parsed.platform];
  const config: NewConnection['config'] = {};
  for (const [key, value] of Object.entries(parsed.config))
    if (value !== '') config[key] = typeof value === 'string' ? value.trim() : value;
  for (const field of info.fields) {
    // A checkbox option is a boolean; "true"/"false" from a hand-written request or a CLI flag mean the same.
    const value = config[field.key];
    if (field.type === 'boolean' && (value === 'true' || value === 'false'))
      config[field.key] = value === 'true';
  }
  const secrets: Record<string, string> = {};
  for (const [key, value] of Object.entries(parsed.secrets))
    if (value.trim() !== '') secrets[key] = value.trim();

  const problems: string[] = [];
  for (const field of info.fields) {
    const inConfig = config[field.key] !== undefined;
    const inSecrets = secrets[field.key] !== undefined;
    if (field.secret && inConfig)
      problems.push(`${field.key} is a secret and belongs in secrets, not config`);
    if (!field.secret && inSecrets) problems.push(`${field.key} is not a secret and belongs in config`);
    if (field.required && !(field.secret ? inSecrets : inConfig))
      problems.push(`${field.label.en} (${field.flag}) is required`);
    if (field.type === 'boolean' && inConfig && typeof config[field.key] !== 'boolean')
      problems.push(`${field.key} must be true or false`);
  }
  for (const key of Object.keys(secrets))
    if (!info.fields.some((field) => field.key === key)) problems.push(`unknown secret field "${key}"`);
  const baseUrl = config['baseUrl'];
  if (baseUrl !== undefined && (typeof baseUrl !== 'string' || !/^https?:\/\/[^\s/]+/.test(baseUrl)))
    problems.push('baseUrl must be an http(s) URL');
  const port = config['redirectPort'];
  if (port !== undefined && !(Number.isInteger(Number(port)) && Number(port) >= 0 && Number(port) <= 65_535))
    problems.push('redirectPort must be a port number (1-65535)');
  const scopes = config['oauthScopes'];
  if (scopes !== undefined) {
    const problem =
      typeof scopes === 'string'
        ? scopeListProblem(scopes)
        : 'oauthScopes must be space-separated scope names';
    if (problem) problems.push(problem);
    else config['oauthScopes'] = (scopes as string).split(/\s+/).join(' ');
  }
  const path = config['path'];
  if (parsed.platform === 'folder' && typeof path === 'string' && !/^([/\\]|[A-Za-z]:[/\\])/.test(path))
    problems.push('path must be an absolute folder path');
  return { clean: { ...parsed, config, secrets }, problems };
}

function invalid(platform: Platform, problems: string[]): CairnError {
  return new CairnError(
    'INVALID_ARGUMENT',
    `Invalid ${PLATFORM_INFO[platform].label.en} connection: ${problems.join('; ')}.`,
  );
}

export interface ConnectionEdit {
  name: string;
  config: ConnectionView['config'];
  /** Every secret to store after the edit: the stored ones with the edited ones laid over them. */
  secrets: Record<string, string>;
  /** The secret values the edit supplied (trimmed, non-empty). */
  givenSecrets: Record<string, string>;
  /** Stored secret fields the edit removes (`clearSecrets`); fields that were not stored are left out. */
  clearedSecrets: string[];
  /** The settings or credentials change, i.e. how Cairn reaches the platform (not just the name). */
  changesAccess: boolean;
}

/** Checks the shape of an edit (before anything is read), failing as INVALID_ARGUMENT. */
export function parseConnectionUpdate(input: ConnectionUpdate): ConnectionUpdate {
  return parseInput(connectionUpdateSchema, input, 'connection update');
}

export function planConnectionEdit(
  view: ConnectionView,
  stored: Record<string, string>,
  update: ConnectionUpdate,
): ConnectionEdit {
  const info = PLATFORM_INFO[view.platform];
  const fieldOf = (key: string) => info.fields.find((field) => field.key === key);
  const problems: string[] = [];

  const config = { ...view.config };
  for (const [key, value] of Object.entries(update.config ?? {})) {
    const field = fieldOf(key);
    if (!field) problems.push(`unknown field "${key}"`);
    else if (field.secret) problems.push(`${key} is a secret and belongs in secrets, not config`);
    else if (value === '' || (typeof value === 'string' && value.trim() === '')) delete config[key];
    else config[key] = value;
  }
  const givenSecrets: Record<string, string> = {};
  for (const [key, value] of Object.entries(update.secrets ?? {})) {
    const field = fieldOf(key);
    if (!field) problems.push(`unknown secret field "${key}"`);
    else if (!field.secret) problems.push(`${key} is not a secret and belongs in config`);
    else if (value.trim() !== '') givenSecrets[key] = value.trim();
  }
  const clearing = new Set<string>();
  for (const key of update.clearSecrets ?? []) {
    const field = fieldOf(key);
    if (!field) problems.push(`unknown secret field "${key}"`);
    else if (!field.secret) problems.push(`${key} is not a secret: clear it with "" in config`);
    else if (field.required)
      problems.push(`${field.label.en} (${field.flag}) is required and cannot be removed`);
    else if (key in givenSecrets) problems.push(`${key} cannot be both replaced and removed`);
    else clearing.add(key);
  }
  const kept = Object.fromEntries(Object.entries(stored).filter(([key]) => !clearing.has(key)));
  // Connectors may store more than the declared fields (e.g. a rotated token): those are kept,
  // but only the declared ones are validated.
  const declared = Object.fromEntries(Object.entries(kept).filter(([key]) => fieldOf(key)?.secret));
  const review = reviewFields({
    platform: view.platform,
    name: update.name ?? view.name,
    mode: view.mode,
    config,
    secrets: { ...declared, ...givenSecrets },
  });
  if (problems.length + review.problems.length > 0)
    throw invalid(view.platform, [...problems, ...review.problems]);
  const checked = review.clean;
  const secrets = { ...kept, ...givenSecrets };
  const clearedSecrets = [...clearing].filter((key) => key in stored);
  const changesAccess =
    !sameRecord(checked.config, view.config) ||
    clearedSecrets.length > 0 ||
    Object.entries(givenSecrets).some(([key, value]) => stored[key] !== value);
  return { name: checked.name, config: checked.config, secrets, givenSecrets, clearedSecrets, changesAccess };
}

function sameRecord(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((key) => a[key] === b[key]);
}
