/**
 * The ONE function that decides which backend the e2e suite drives: the real composition root
 * (createCairn) on a temporary data directory, served by the headless host, with the Yuque,
 * Feishu and DingTalk fake servers, a fake OpenAI-compatible chat server and a temporary folder
 * of Markdown notes.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCairn, type CairnInternals } from '../../src-main/core/app/create-cairn';
import {
  startFakeOpenAiServer,
  type FakeOpenAiServer,
} from '../../src-main/testing/fakes/fake-openai-server';
import type { ConnectorInit } from '../../src-main/core/connectors/connector';
import { startDingTalkFake, type DingTalkFake } from '../../src-main/testing/fakes/dingtalk-fake';
import { startFeishuFake, type FeishuFake } from '../../src-main/testing/fakes/feishu-fake';
import { startYuqueFake, type YuqueFake } from '../../src-main/testing/fakes/yuque-fake';
import { FeishuConnector } from '../../src-main/core/connectors/feishu/feishu-connector';
import { defaultConnectorFactories } from '../../src-main/core/connectors/registry';
import { createLogger, SecretRedactor } from '../../src-main/core/logging/logger';
import { startHttpHost } from '../../src-main/host/http-host';
import { startInstanceHost } from '../../src-main/instance/instance-host';
import { writeNotesFolder } from './notes-folder';

export interface BackendHost {
  /** The page to open, token included. */
  url: string;
  origin: string;
  /** Links the UI asked to open (after core allowed them). */
  opened: string[];
  cairn: CairnInternals;
  yuque: YuqueFake;
  feishu: FeishuFake;
  dingtalk: DingTalkFake;
  chatModel: FakeOpenAiServer;
  /** A folder of Markdown notes (and one binary file) for local-folder connections. */
  notesDir: string;
  /** Every log line core wrote (already redacted), for the secret check after each test. */
  logLines: string[];
  /** Every secret the backend knows of (fake tokens, chat key), to grep for. */
  secrets(): string[];
  close(): Promise<void>;
}

export const RENDERER_DIR = join(process.cwd(), 'out', 'renderer');

/**
 * Yuque runs at its documented pace (5 requests/s, the registry's default): a sync takes ~5 s, so
 * the progress bar visibly moves however loaded the machine is (at 12/s a loaded run could finish
 * between two looks). Feishu's wiki listing cap (100/min) is lifted for speed; its content API
 * keeps 5/s, which the fake enforces.
 */
const E2E_FEISHU_API_RATE = { intervalMs: 1000, intervalCap: 50 };

export interface BackendOptions {
  /** Watch local folders as the app and `cairn serve` do (off by default: tests sync on demand). */
  watchFolders?: boolean;
}

export async function startBackendHost(options: BackendOptions = {}): Promise<BackendHost> {
  if (!existsSync(join(RENDERER_DIR, 'index.html')))
    throw new Error('out/renderer is missing: the global setup builds it (npm run build).');
  const scratch = mkdtempSync(join(tmpdir(), 'cairn-e2e-'));
  const notesDir = writeNotesFolder(join(scratch, 'notes'));
  const [yuque, feishu, dingtalk, chatModel] = await Promise.all([
    startYuqueFake(),
    startFeishuFake(),
    startDingTalkFake(),
    startFakeOpenAiServer(),
  ]);
  const fakes = [yuque, feishu, dingtalk, chatModel];
  const logLines: string[] = [];
  const redactor = new SecretRedactor();
  let cairn: CairnInternals;
  try {
    cairn = await createCairn({
      dataDir: join(scratch, 'data'),
      // No CAIRN_* from the machine running the suite: the UI configures everything. Secrets go to
      // the data dir's file, never to the keychain of the developer running the suite.
      env: { CAIRN_SECRET_STORE: 'file' },
      redactor,
      logger: createLogger({ redactor, level: 'debug', sink: (line) => void logLines.push(line) }),
      scheduler: false,
      watchFolders: options.watchFolders ?? false,
      factories: {
        ...defaultConnectorFactories(),
        feishu: (init: ConnectorInit) =>
          new FeishuConnector('feishu', init, { rates: { api: E2E_FEISHU_API_RATE } }),
      },
    });
  } catch (error) {
    await Promise.all(fakes.map((fake) => fake.close()));
    rmSync(scratch, { recursive: true, force: true });
    throw error;
  }
  // Like `cairn serve`: the instance socket, so `cairn mcp` (Settings → AI tools → Test) reaches this core.
  const instance = await startInstanceHost({
    dataDir: join(scratch, 'data'),
    kind: 'serve',
    version: '0.1.0',
    apiFor: (signal) => cairn.cancellable(signal),
    events: cairn.events,
  });
  const opened: string[] = [];
  const host = await startHttpHost({
    api: cairn.api,
    events: cairn.events,
    rendererDir: RENDERER_DIR,
    openExternal: async (url) => void opened.push(url),
  });
  return {
    url: host.url,
    origin: host.origin,
    opened,
    cairn,
    yuque,
    feishu,
    dingtalk,
    chatModel,
    notesDir,
    logLines,
    secrets: () => [
      ...yuque.control.issuedTokens(),
      feishu.credentials.appSecret,
      feishu.credentials.userRefreshToken,
      feishu.control.latestRefreshToken,
      dingtalk.credentials.appSecret!,
      ...dingtalk.control.issuedTokens(),
      ...dingtalk.control.stream.issuedTickets(),
      chatModel.apiKey,
    ],
    async close() {
      await host.close();
      await instance.close();
      await cairn.dispose();
      await Promise.all(fakes.map((fake) => fake.close()));
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}
