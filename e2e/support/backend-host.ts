/**
 * The ONE function that decides which backend the e2e suite drives. Today: the in-memory demo
 * backend. To run against the real core, replace the body with createCairn(...) on a temporary
 * data directory plus the platform fake servers, and keep the returned shape.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createDemoCairn } from '../../src-main/host/demo-cairn';
import { startHttpHost } from '../../src-main/host/http-host';

export interface BackendHost {
  /** The page to open, token included. */
  url: string;
  origin: string;
  /** Links the UI asked to open (after core allowed them). */
  opened: string[];
  close(): Promise<void>;
}

export const RENDERER_DIR = join(process.cwd(), 'out', 'renderer');

export async function startBackendHost(options: { tickMs?: number } = {}): Promise<BackendHost> {
  if (!existsSync(join(RENDERER_DIR, 'index.html'))) throw new Error('out/renderer is missing: the global setup builds it (npm run build).');
  const cairn = createDemoCairn({ tickMs: options.tickMs ?? 250 });
  const opened: string[] = [];
  const host = await startHttpHost({ api: cairn.api, events: cairn.events, rendererDir: RENDERER_DIR, openExternal: async (url) => void opened.push(url) });
  return {
    url: host.url,
    origin: host.origin,
    opened,
    async close() {
      await host.close();
      await cairn.dispose();
    },
  };
}
