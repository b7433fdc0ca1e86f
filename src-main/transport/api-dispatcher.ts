/**
 * The one door from an untrusted transport (IPC message, HTTP request) into the contract:
 * resolve the wire name against API_METHODS, validate the argument with API_SCHEMAS, call the
 * implementation, and hand back a Result. Nothing thrown escapes; unexpected errors are logged
 * with their stack and cross the boundary as INTERNAL data (STYLE.md §6).
 */
import { API_METHODS, type ApiDomain, type CairnApi } from '@shared/contract';
import { fail, ok, type Result } from '@shared/errors';
import type { Logger } from '../core/logging/logger';
import { parseOpenTarget, openTargetString, realOpenTarget } from '../core/app/open-external';
import { toErrorData } from '../core/errors';
import { API_SCHEMAS } from './api-schemas';

export type ApiDispatcher = (channel: string, input: unknown) => Promise<Result<unknown>>;

type AnyMethod = (input?: unknown) => Promise<Result<unknown>>;

/** Splits "sync.start" into a domain and method that the contract really has, or null. */
export function resolveChannel(channel: string): { domain: ApiDomain; method: string } | null {
  const dot = channel.indexOf('.');
  if (dot <= 0) return null;
  const domain = channel.slice(0, dot);
  const method = channel.slice(dot + 1);
  // Own-property checks only: "__proto__.x" or "app.constructor" must never resolve.
  if (!Object.prototype.hasOwnProperty.call(API_METHODS, domain)) return null;
  const methods = API_METHODS[domain as ApiDomain] as readonly string[];
  return methods.includes(method) ? { domain: domain as ApiDomain, method } : null;
}

export function createApiDispatcher(api: CairnApi, logger?: Logger): ApiDispatcher {
  return async function dispatch(channel, input) {
    const resolved = resolveChannel(channel);
    if (!resolved) return fail('NOT_FOUND', `Unknown method "${String(channel).slice(0, 80)}".`);
    const schemas = API_SCHEMAS[resolved.domain] as Record<
      string,
      {
        safeParse(
          value: unknown,
        ):
          | { success: true; data: unknown }
          | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
      }
    >;
    const parsed = schemas[resolved.method]!.safeParse(input);
    if (!parsed.success) {
      const details = parsed.error.issues
        .slice(0, 3)
        .map((issue) => `${issue.path.map(String).join('.') || 'argument'}: ${issue.message}`);
      return fail('INVALID_ARGUMENT', `Invalid argument for ${channel}: ${details.join('; ')}`);
    }
    const domain = api[resolved.domain] as unknown as Record<string, AnyMethod>;
    try {
      const result =
        parsed.data === undefined
          ? await domain[resolved.method]!.call(domain)
          : await domain[resolved.method]!.call(domain, parsed.data);
      return result;
    } catch (error) {
      // The contract returns Results; a throw here is a broken invariant: log it with its stack.
      logger?.error(`${channel} threw`, { error });
      return { ok: false, error: toErrorData(error) };
    }
  };
}

/**
 * Wraps `app.openExternal` so that after core's check succeeds the shell opens the link.
 * Core decides WHAT may be opened; the shell (Electron's `shell`, or the OS opener for the
 * headless host) decides HOW.
 */
export function withExternalOpener(
  api: CairnApi,
  open: (target: string, how?: { reveal?: boolean }) => Promise<void>,
): CairnApi {
  return {
    ...api,
    app: {
      status: () => api.app.status(),
      pickFolder: () => api.app.pickFolder(),
      recover: (input) => api.app.recover(input),
      async openExternal(input) {
        const checked = await api.app.openExternal(input);
        if (!checked.ok) return checked;
        try {
          // The form core checked (see parseOpenTarget), not the raw string; a file by its real
          // path, which core checked lies inside a connected folder (checkOpenTarget).
          const target = openTargetString(await realOpenTarget(parseOpenTarget(input.url)), input.page);
          await (input.reveal ? open(target, { reveal: true }) : open(target));
          return checked;
        } catch (error) {
          return fail(
            'INTERNAL',
            `Could not open the link: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
      },
    },
  };
}

/**
 * Electron: after core started a sign-in, the shell opens its page in the system browser (the
 * sandboxed window may open nothing itself) and says so with `opened: true`. Only a web page is
 * handed over; core already allowed only https or the connection's own base URL.
 */
export function withSignInOpener(
  api: CairnApi,
  open: (url: string) => Promise<void>,
  logger?: Logger,
): CairnApi {
  return {
    ...api,
    connections: {
      ...api.connections,
      async authorize(input) {
        const started = await api.connections.authorize(input);
        if (!started.ok) return started;
        const target = parseOpenTarget(started.value.authorizeUrl);
        if (target.kind !== 'url') return fail('PERMISSION_DENIED', 'The sign-in page is not a web address.');
        try {
          await open(target.url);
          return ok({ ...started.value, opened: true });
        } catch (error) {
          // The flow still waits: the UI offers to open the page again.
          logger?.warn('could not open the sign-in page', { error });
          return ok({ ...started.value, opened: false });
        }
      },
    },
  };
}
