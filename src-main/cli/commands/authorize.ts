/**
 * `cairn authorize <connection>`: the Feishu/Lark browser sign-in from a terminal. Prints the
 * sign-in page, opens it in the default browser (unless --no-open, e.g. over SSH with a tunnel),
 * waits for the platform to send the browser back to Cairn's loopback address, and prints the
 * outcome. Ctrl-C cancels the sign-in and frees the port.
 */
import type { CairnEvents } from '@shared/contract';
import { PLATFORM_INFO } from '@shared/platforms';
import { openWithSystem } from '../../host/system-opener';
import { parseCommandArgs } from '../args';
import type { CliCommand, CliContext } from '../command';
import { exitCodeFor, reportError, writeJson, writeLine } from '../output';
import { resolveConnection } from '../resolve-connection';

const USAGE = [
  'cairn authorize <connection> [--no-open] [--json]',
  'Signs in to Feishu/Lark as yourself so search and My Library work. The app must list the printed',
  'redirect URL (http://127.0.0.1:<port>/callback) under Security settings → Redirect URLs.',
  'Exit code 0 when signed in, 1 when refused or failed, 130 when cancelled with Ctrl-C.',
  'To withdraw the sign-in (shared computer, wrong account): cairn sign-out <connection>.',
].join('\n');

export interface AuthorizeOptions {
  /** @default the OS opener */
  openBrowser?: (url: string) => Promise<void>;
}

export async function runAuthorize(
  args: string[],
  context: CliContext,
  options: AuthorizeOptions = {},
): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    args,
    { 'no-open': { type: 'boolean' }, json: { type: 'boolean' } },
    { min: 1, max: 1, names: 'the <connection>' },
  );
  const json = values.json ?? false;
  const { api, events } = await context.open();
  const found = await resolveConnection(api, positionals[0] ?? '');
  if (!found.ok) return reportError(context, found.error, json);
  const connection = found.value;

  // Subscribe before starting: a quick browser can finish before authorize() even answers.
  let resolveOutcome!: (outcome: CairnEvents['auth.finished']) => void;
  const outcome = new Promise<CairnEvents['auth.finished']>((resolve) => (resolveOutcome = resolve));
  const unsubscribe = events.on('auth.finished', (payload) => {
    if (payload.connectionId === connection.id) resolveOutcome(payload);
  });
  const onAbort = () => void api.connections.cancelAuthorize({ id: connection.id });
  try {
    const started = await api.connections.authorize({ id: connection.id });
    if (!started.ok) return reportError(context, started.error, json);
    const { authorizeUrl } = started.value;
    const label = PLATFORM_INFO[connection.platform].label.en;
    const redirect = new URL(authorizeUrl).searchParams.get('redirect_uri');
    // With --json stdout carries one document only, so the page goes to stderr.
    const say = json ? context.stderr : context.stdout;
    writeLine(say, `Sign in to ${label} for "${connection.name}" on this page:\n  ${authorizeUrl}`);
    if (redirect)
      writeLine(
        say,
        `(${label} sends the browser back to ${redirect}; the app must list it as a redirect URL.)`,
      );
    if (!values['no-open']) {
      await (options.openBrowser ?? openWithSystem)(authorizeUrl).catch((error: unknown) => {
        writeLine(
          context.stderr,
          `Could not open a browser (${error instanceof Error ? error.message : String(error)}): open the page above yourself.`,
        );
      });
    }
    writeLine(say, 'Waiting for you to approve in the browser (Ctrl-C cancels)…');
    if (context.signal.aborted) onAbort();
    else context.signal.addEventListener('abort', onAbort, { once: true });

    const result = await outcome;
    if (result.ok) {
      if (json)
        writeJson(context, {
          ok: true,
          value: { connectionId: connection.id, name: connection.name, signedIn: true },
        });
      else writeLine(context.stdout, `Signed in: search and My Library now work for "${connection.name}".`);
      return 0;
    }
    const error = result.error ?? {
      code: 'INTERNAL' as const,
      message: 'The sign-in ended without an answer.',
    };
    if (error.code === 'CANCELLED') {
      if (json) writeJson(context, { ok: false, error });
      else writeLine(context.stderr, 'Sign-in cancelled.');
      return exitCodeFor(error.code);
    }
    return reportError(context, error, json);
  } finally {
    context.signal.removeEventListener('abort', onAbort);
    unsubscribe();
  }
}

export const authorizeCommand: CliCommand = {
  name: 'authorize',
  summary: 'Sign in to Feishu/Lark in the browser so search and My Library work',
  usage: USAGE,
  run: (args, context) => runAuthorize(args, context),
};
