import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../core/logging/logger';
import { createConnector } from '../../core/connectors/registry';
import { describeFake, FAKES } from './run-fake';

describe('run-fake', () => {
  it('prints credentials and a cairn add command that work against the fake (Feishu)', async () => {
    const fake = await FAKES.feishu!({ documents: 3 });
    try {
      const text = describeFake('feishu', fake);
      const command = /cairn add feishu (.+)/.exec(text)?.[1] ?? '';
      const flag = (name: string) => new RegExp(`${name} (\\S+)`).exec(command)?.[1];
      expect(command).toContain(`--base-url ${fake.baseUrl}`);
      const connector = createConnector('feishu', {
        config: { baseUrl: flag('--base-url')!, appId: flag('--app-id')! },
        secrets: { appSecret: flag('--app-secret')!, userRefreshToken: flag('--user-refresh-token')! },
        logger: silentLogger(),
      });
      expect(await connector.validate()).toMatchObject({
        message: expect.stringMatching(/^Connected to Feishu as app cli_/),
      });
    } finally {
      await fake.close();
    }
  });

  it('prints a DingTalk command whose connection gets full text through the fake blocks API', async () => {
    const fake = await FAKES.dingtalk!({ documents: 2 });
    let connector: ReturnType<typeof createConnector> | null = null;
    try {
      const command = /cairn add dingtalk (.+)/.exec(describeFake('dingtalk', fake))?.[1] ?? '';
      const flag = (name: string) => new RegExp(`${name} (\\S+)`).exec(command)?.[1];
      expect(command).not.toMatch(/ --stream-events( |$)/);
      connector = createConnector('dingtalk', {
        config: {
          baseUrl: flag('--base-url')!,
          appKey: flag('--app-key')!,
          operatorId: flag('--operator-id')!,
        },
        secrets: { appSecret: flag('--app-secret')! },
        logger: silentLogger(),
      });
      expect({ fullText: connector.capabilities.fullText, validate: await connector.validate() }).toEqual({
        fullText: true,
        validate: expect.objectContaining({
          message: expect.stringMatching(/Full text through the document blocks API\.$/),
        }),
      });
    } finally {
      await connector?.dispose?.();
      await fake.close();
    }
  });

  it('starts from the command line, serves, and stops on SIGINT', async () => {
    const script = fileURLToPath(new URL('./run-fake.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', script, 'yuque', '--docs', '5'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const output = await new Promise<string>((resolve, reject) => {
        let text = '';
        child.stdout.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          if (text.includes('Ctrl-C')) resolve(text);
        });
        child.once('exit', (code) => reject(new Error(`run-fake exited early (${code}): ${text}`)));
      });
      const baseUrl = /--base-url (\S+)/.exec(output)![1]!;
      const token = /--token (\S+)/.exec(output)![1]!;
      const answer = await fetch(`${baseUrl}/repos/5000/docs`, { headers: { 'x-auth-token': token } });
      expect(((await answer.json()) as { meta: { total: number } }).meta.total).toBeGreaterThan(0);
    } finally {
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGINT');
      expect(await exited).toBe(0);
    }
  });
});
