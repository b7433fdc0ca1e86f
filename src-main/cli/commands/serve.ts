/**
 * `cairn serve`: the app without Electron. Opens Cairn's core on the data directory, serves the
 * built renderer and the contract on 127.0.0.1, and prints the address with its per-run token.
 * Runs until Ctrl+C (or SIGTERM, SIGHUP), then disposes everything it started.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { packageRoot } from '../../core/app/package-root';
import { openWithSystem } from '../../host/system-opener';
import type { CliCommand, CliContext, OpenedCairn } from '../command';

const USAGE = 'cairn serve [--port <n>] [--open]';

export interface ServeOptions {
  /** Aborting stops the server (Ctrl+C in the real command). */
  stop: AbortSignal;
  /** @default the built renderer in <repo>/out/renderer, or $CAIRN_RENDERER_DIR */
  rendererDir?: string;
  /** @default the OS opener */
  openBrowser?: (url: string) => Promise<void>;
}

export function defaultRendererDir(env: NodeJS.ProcessEnv): string {
  return env.CAIRN_RENDERER_DIR ?? join(packageRoot(), 'out', 'renderer');
}

export async function runServe(args: string[], context: CliContext, options: ServeOptions): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: { port: { type: 'string' }, open: { type: 'boolean' } },
    });
  } catch (error) {
    context.stderr.write(`${error instanceof Error ? error.message : String(error)}\nusage: ${USAGE}\n`);
    return 2;
  }
  const port = parsed.values.port === undefined ? 0 : Number(parsed.values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    context.stderr.write(`--port must be a whole number from 0 to 65535.\nusage: ${USAGE}\n`);
    return 2;
  }
  const rendererDir = options.rendererDir ?? defaultRendererDir(context.env);
  let cairn: OpenedCairn;
  try {
    cairn = await context.open({ scheduler: true, role: 'serve' });
  } catch (error) {
    context.stderr.write(`Could not open Cairn: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  let host;
  try {
    // Loaded here: the host (and the transport's schemas) is for this command only.
    const { startHttpHost } = await import('../../host/http-host');
    host = await startHttpHost({
      api: cairn.api,
      events: cairn.events,
      rendererDir,
      port,
      openExternal: options.openBrowser ?? openWithSystem,
    });
  } catch (error) {
    await cairn.dispose();
    context.stderr.write(
      `Could not listen on 127.0.0.1:${port}: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return 1;
  }
  context.stdout.write(`Cairn is running at ${host.url}\n`);
  const status = await cairn.api.app.status();
  if (!status.ok && status.error.code === 'DATA_DIR_DAMAGED')
    context.stderr.write(
      `${status.error.message}\nOpen ${host.url} to choose there, or stop this and run cairn recover.\n`,
    );
  if (cairn.answeredBy)
    context.stdout.write(
      `Other cairn commands and \`cairn mcp\` on this data directory use it (${cairn.answeredBy.address}).\n`,
    );
  if (!existsSync(join(rendererDir, 'index.html')))
    context.stdout.write('The UI is not built yet: run `npm run build` (the API works already).\n');
  context.stdout.write('Press Ctrl+C to stop.\n');
  if (parsed.values.open) {
    await (options.openBrowser ?? openWithSystem)(host.url).catch((error: unknown) => {
      context.stderr.write(
        `Could not open a browser (${error instanceof Error ? error.message : String(error)}): open the address above yourself.\n`,
      );
    });
  }
  if (!options.stop.aborted)
    await new Promise<void>((resolve) =>
      options.stop.addEventListener('abort', () => resolve(), { once: true }),
    );
  await host.close();
  await cairn.dispose();
  return 0;
}

export const serveCommand: CliCommand = {
  name: 'serve',
  summary: 'Serve the Cairn UI and API on 127.0.0.1 for your browser (no Electron needed).',
  usage: USAGE,
  run(args, context) {
    // Ctrl-C, SIGTERM (service managers, logout) and SIGHUP arrive as the dispatcher's signal:
    // running syncs are recorded as stopped, then the lock and socket are released.
    return runServe(args, context, { stop: context.signal });
  },
};
