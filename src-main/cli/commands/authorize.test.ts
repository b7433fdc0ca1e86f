/** `cairn authorize` over a real in-memory Cairn and the Feishu fake, with a scripted "browser". */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCairn, type CairnInternals } from '../../core/app/create-cairn';
import { startFeishuFake, type FeishuFake } from '../../testing/fakes/feishu-fake';
import { runCli } from '../../testing/run-cli';
import type { CliCommand } from '../command';
import { secretRefFor } from '../../core/connections/connection-repository';
import { authorizeCommand, runAuthorize } from './authorize';
import { signOutCommand } from './sign-out';

let cairn: CairnInternals;
let fake: FeishuFake;
const browsed: string[] = [];

/** The command with a browser that approves: it loads the page and follows the redirect to the loopback. */
const withBrowser: CliCommand = {
  ...authorizeCommand,
  run: (args, context) =>
    runAuthorize(args, context, {
      openBrowser: async (url) => void browsed.push(await (await fetch(url)).text()),
    }),
};

const cli = (argv: string[], signal?: AbortSignal) =>
  runCli(argv, { cairn, commands: [withBrowser, signOutCommand], ...(signal ? { signal } : {}) });

beforeAll(async () => {
  fake = await startFeishuFake({ documents: 2 });
  cairn = await createCairn({ scheduler: false, env: {} });
  for (const name of ['wiki', 'other']) {
    const added = await cairn.api.connections.add({
      platform: 'feishu',
      name,
      mode: 'direct',
      config: { baseUrl: fake.baseUrl, appId: fake.credentials.appId, redirectPort: 0 },
      secrets: { appSecret: fake.credentials.appSecret },
    });
    if (!added.ok) throw new Error(added.error.message);
  }
});

afterAll(async () => {
  await cairn.dispose();
  await fake.close();
});

describe('cairn authorize', () => {
  it('prints the page, lets the browser approve, and stores the sign-in', async () => {
    const run = await cli(['authorize', 'wiki']);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toMatch(
      /^Sign in to Feishu for "wiki" on this page:\n {2}http:\/\/127\.0\.0\.1:\d+\/open-apis\/authen\/v1\/authorize\?client_id=cli_cairnfake0001&response_type=code&redirect_uri=http%3A%2F%2F127\.0\.0\.1%3A\d+%2Fcallback&scope=offline_access\+/,
    );
    expect(
      run.stdout.endsWith(
        'Waiting for you to approve in the browser (Ctrl-C cancels)…\nSigned in: search and My Library now work for "wiki".\n',
      ),
    ).toBe(true);
    expect(browsed.at(-1)).toContain('You can close this tab');
    const views = await cairn.api.connections.list();
    expect(views.ok && views.value.find((view) => view.name === 'wiki')?.userAuth).toBe('authorized');
    expect(run.stdout).not.toContain(fake.control.latestRefreshToken);
  });

  it('cancels on Ctrl-C with exit code 130, and reports refusals and unknown connections', async () => {
    const controller = new AbortController();
    // Ctrl-C as soon as the sign-in waits (the view turns pending).
    const off = cairn.events.on('connections.changed', (views) => {
      if (views.some((view) => view.name === 'other' && view.userAuth === 'pending')) controller.abort();
    });
    const cancelled = await cli(['authorize', 'other', '--no-open'], controller.signal).finally(off);
    expect([cancelled.code, cancelled.stderr]).toEqual([130, 'Sign-in cancelled.\n']);
    fake.control.setConsent('deny');
    const refused = await cli(['authorize', 'other', '--json']).finally(() =>
      fake.control.setConsent('approve'),
    );
    expect([refused.code, JSON.parse(refused.stdout)]).toEqual([
      1,
      {
        ok: false,
        error: { code: 'PERMISSION_DENIED', message: 'You declined the sign-in in the browser.' },
      },
    ]);
    expect(refused.stderr).toContain('/open-apis/authen/v1/authorize?');
    const unknown = await cli(['authorize', 'nope']);
    expect([unknown.code, unknown.stderr.startsWith('cairn: No connection named "nope".')]).toEqual([
      1,
      true,
    ]);
  });

  it('cairn sign-out removes the user authorisation and keeps the app credentials', async () => {
    const listed = await cairn.api.connections.list();
    const id = listed.ok ? listed.value.find((view) => view.name === 'wiki')!.id : '';
    expect((await cairn.secrets.get(secretRefFor(id)))?.userRefreshToken).toBeDefined();
    const run = await cli(['sign-out', 'wiki']);
    expect([run.code, run.stdout, run.stderr]).toEqual([
      0,
      'Signed out of Feishu on "wiki": the user authorisation was removed; the app credentials stay.\n',
      '',
    ]);
    expect(await cairn.secrets.get(secretRefFor(id))).toEqual({ appSecret: fake.credentials.appSecret });
    const again = await cli(['sign-out', 'wiki', '--json']);
    expect([again.code, JSON.parse(again.stdout).value.userAuth]).toEqual([0, 'none']);
    const human = await cli(['sign-out', 'wiki']);
    expect(human.stdout).toBe('"wiki" had no Feishu sign-in stored; nothing to remove.\n');
  });
});
