/**
 * The Add/Edit connection form's data and rules, apart from its rendering: what the fields start
 * from, what is missing, and what Add, Save and Test send. Pure functions of the draft (and of the
 * saved connection, when editing), so they are tested without a DOM.
 */
import type { ConnectionUpdate, ConnectionView, NewConnection, Platform } from '@shared/models';
import { PLATFORM_INFO } from '@shared/platforms';
import type { Language } from '../../i18n/i18n';

export interface ConnectionDraft {
  platform: Platform;
  /** As typed; empty means the default name (the folder's name, or the platform's). */
  name: string;
  /** Field values by PLATFORM_INFO key, as typed; a boolean field is 'true' or ''. */
  values: Record<string, string>;
  /** New connections only: keep a local index (RAG) rather than search live. */
  rag: boolean;
  /** Edits only: stored optional secrets to remove (`clearSecrets`). */
  clearing: string[];
}

/** What the form checks itself before sending anything. */
export type DraftProblem =
  | { kind: 'required'; field: string }
  /** Give one of these fields (DingTalk: userId or unionId). */
  | { kind: 'oneOf'; fields: string[] };

/** A new connection's draft: an empty form on `platform`, or a folder path dropped or picked beforehand. */
export function newDraft(platform: Platform, path?: string): ConnectionDraft {
  return { platform, name: '', values: path ? { path } : {}, rag: true, clearing: [] };
}

/** An edit starts from the saved non-secret fields; secret fields start empty (their values never reach the renderer). */
export function editDraft(connection: ConnectionView): ConnectionDraft {
  const values: Record<string, string> = {};
  for (const field of PLATFORM_INFO[connection.platform].fields) {
    const value = connection.config[field.key];
    if (!field.secret && value !== undefined) values[field.key] = String(value);
  }
  return { platform: connection.platform, name: connection.name, values, rag: true, clearing: [] };
}

/** Another platform picked in the Add form: its own, empty fields (the name stays). */
export function withPlatform(draft: ConnectionDraft, platform: Platform): ConnectionDraft {
  return { ...draft, platform, values: {} };
}

/** The first thing missing, or null. `stored`: secret fields the saved connection has (an edit keeps them). */
export function draftProblem(draft: ConnectionDraft, stored: readonly string[] = []): DraftProblem | null {
  const info = PLATFORM_INFO[draft.platform];
  const given = (key: string) => !!draft.values[key]?.trim() || stored.includes(key);
  const missing = info.fields.find((field) => field.required && !given(field.key));
  if (missing) return { kind: 'required', field: missing.key };
  const group = info.requireOneOf?.find((keys) => !keys.some(given));
  return group ? { kind: 'oneOf', fields: [...group] } : null;
}

/**
 * Whether the platform can be searched live instead of copied (direct mode). A local folder cannot:
 * its local copy is all there is, so neither the form nor its card offers to turn the copy off.
 */
export function searchedLive(platform: Platform): boolean {
  return platform !== 'folder';
}

/** The name Add gives a connection left unnamed: the folder's own name, else the platform's. */
export function defaultName(draft: ConnectionDraft, language: Language): string {
  const label = PLATFORM_INFO[draft.platform].label[language];
  const path = draft.values.path?.trim();
  if (draft.platform !== 'folder' || !path) return label;
  return (
    path
      .replace(/[\\/]+$/, '')
      .split(/[\\/]/)
      .pop() || label
  );
}

/** What Add (and its Test) sends: only the fields given, secrets apart. */
export function newConnection(draft: ConnectionDraft, language: Language): NewConnection {
  const config: NewConnection['config'] = {};
  const secrets: Record<string, string> = {};
  for (const field of PLATFORM_INFO[draft.platform].fields) {
    const value = draft.values[field.key]?.trim();
    if (field.type === 'boolean') config[field.key] = value === 'true';
    else if (value) (field.secret ? secrets : config)[field.key] = value;
  }
  return {
    platform: draft.platform,
    name: draft.name.trim() || defaultName(draft, language),
    mode: draft.rag || !searchedLive(draft.platform) ? 'rag' : 'direct',
    config,
    secrets,
  };
}

/** What Save (and its Test) sends: every non-secret field ("" clears an optional one); only secrets typed in. */
export function connectionUpdate(draft: ConnectionDraft, connection: ConnectionView): ConnectionUpdate {
  const config: NonNullable<ConnectionUpdate['config']> = {};
  const secrets: Record<string, string> = {};
  for (const field of PLATFORM_INFO[connection.platform].fields) {
    const value = draft.values[field.key]?.trim() ?? '';
    if (field.type === 'boolean') config[field.key] = value === 'true';
    else if (!field.secret) config[field.key] = value;
    else if (value && !draft.clearing.includes(field.key)) secrets[field.key] = value;
  }
  const update: ConnectionUpdate = {
    id: connection.id,
    name: draft.name.trim() || connection.name,
    config,
    secrets,
  };
  if (draft.clearing.length > 0) update.clearSecrets = draft.clearing;
  return update;
}

/**
 * What a Test of the draft depends on (not the name, nor whether to keep a copy): a Test's outcome
 * holds for the draft as long as this stays the same.
 */
export function testKey(draft: ConnectionDraft): string {
  return JSON.stringify([draft.platform, draft.values, draft.clearing]);
}
