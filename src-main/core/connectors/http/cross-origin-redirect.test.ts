/**
 * A credential in a request body never follows a redirect to another origin (#25 item 4): two real
 * local servers, the platform's (which answers the token request with a 307 or 308 to the other)
 * and the other one, which records everything it receives. Fetch re-sends a POST's body on 307/308,
 * so without the check Feishu's app_secret and DingTalk's appSecret reached the other server.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../logging/logger';
import { DingTalkClient } from '../dingtalk/dingtalk-client';
import { openGateway } from '../dingtalk/stream-protocol';
import { FeishuTenantAuth } from '../feishu/feishu-auth';
import { ImaConnector } from '../ima/ima-connector';
import { PlatformHttp } from './platform-http';

const SECRET = 'app-secret-0b5e';
const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function listen(
  handler: (req: IncomingMessage, body: string, res: import('node:http').ServerResponse) => void,
) {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => handler(req, body, res));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The other origin: answers like the platform would, and keeps what it was sent. */
async function elsewhere(answer: unknown) {
  const seen: { method?: string; url?: string; headers: IncomingMessage['headers']; body: string }[] = [];
  const url = await listen((req, body, res) => {
    seen.push({ method: req.method, url: req.url, headers: req.headers, body });
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(answer));
  });
  return { url, seen };
}

/** The platform: redirects every request to `target` with `status`. */
async function redirecting(status: number, target: string) {
  const seen: string[] = [];
  const url = await listen((req, body, res) => {
    seen.push(`${req.method} ${req.url} ${body}`);
    res.writeHead(status, { location: `${target}${req.url}` }).end();
  });
  return { url, seen };
}

describe.each([307, 308])('a %i from a token endpoint to another origin', (status) => {
  it('PlatformHttp refuses it and sends the body nowhere else', async () => {
    const other = await elsewhere({ ok: true });
    const platform = await redirecting(status, other.url);
    const http = new PlatformHttp({ baseUrl: platform.url, logger: silentLogger(), maxRetries: 0 });
    await expect(
      http.request({ method: 'POST', path: '/token', body: { secret: SECRET } }, (res) => ({
        kind: 'ok',
        value: res.json,
      })),
    ).rejects.toMatchObject({
      code: 'SOURCE_ERROR',
      message: expect.stringContaining('redirected a POST request to another site'),
    });
    expect(platform.seen).toHaveLength(1);
    expect(other.seen).toEqual([]);
  });

  it("Feishu's tenant_access_token request fails without the app_secret reaching the other server", async () => {
    const other = await elsewhere({ code: 0, tenant_access_token: 't-from-elsewhere', expire: 7200 });
    const platform = await redirecting(status, other.url);
    const auth = new FeishuTenantAuth({
      http: new PlatformHttp({ baseUrl: platform.url, logger: silentLogger(), maxRetries: 0 }),
      label: 'Feishu',
      appId: 'cli_a',
      appSecret: SECRET,
      logger: silentLogger(),
    });
    await expect(auth.token()).rejects.toMatchObject({ code: 'SOURCE_ERROR' });
    expect(platform.seen.join()).toContain(SECRET);
    expect(other.seen).toEqual([]);
  });

  it("DingTalk's accessToken request fails without the appSecret reaching the other server", async () => {
    const other = await elsewhere({ accessToken: 'from-elsewhere', expireIn: 7200 });
    const platform = await redirecting(status, other.url);
    const client = new DingTalkClient({
      baseUrl: platform.url,
      oapiBaseUrl: platform.url,
      appKey: 'ding-key',
      appSecret: SECRET,
      logger: silentLogger(),
      http: { maxRetries: 0 },
    });
    await expect(client.accessToken()).rejects.toMatchObject({ code: 'SOURCE_ERROR' });
    expect(platform.seen.join()).toContain(SECRET);
    expect(other.seen).toEqual([]);
  });

  it("DingTalk's Stream gateway request fails without the clientSecret reaching the other server", async () => {
    const other = await elsewhere({ endpoint: 'wss://elsewhere.invalid', ticket: 't' });
    const platform = await redirecting(status, other.url);
    await expect(
      openGateway({ baseUrl: platform.url, clientId: 'ding-key', clientSecret: SECRET, ua: 'cairn-test' }),
    ).rejects.toMatchObject({ code: 'SOURCE_ERROR' });
    expect(other.seen).toEqual([]);
  });
});

describe("IMA's Test on a cross-origin redirect", () => {
  it.each([303, 307, 308])('fails on a %i, although the other server answers like IMA', async (status) => {
    const other = await elsewhere({
      code: 0,
      msg: 'ok',
      data: { info_list: [{ kb_id: 'k', kb_name: 'Elsewhere' }] },
    });
    const platform = await redirecting(status, other.url);
    const connector = new ImaConnector(
      {
        config: { baseUrl: platform.url, clientId: 'ima-client' },
        secrets: { apiKey: SECRET },
        logger: silentLogger(),
      },
      { http: { maxRetries: 0 } },
    );
    await expect(connector.validate()).rejects.toMatchObject({ code: 'SOURCE_ERROR' });
    expect(other.seen).toEqual([]);
  });
});
