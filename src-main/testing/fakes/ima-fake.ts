/**
 * A fake Tencent IMA agent OpenAPI on 127.0.0.1, serving what docs/connectors.md "IMA" lists from
 * the ima skill package (the only vendor documentation, read through third-party copies) and, where
 * marked, from third-party clients: POST-only JSON actions under /openapi/wiki/v1/* and
 * /openapi/note/v1/*, the {code, msg, data} envelope, cursor paging with `is_end`/`next_cursor`,
 * code 51 for a KB search `limit` above 20, folders as items with media_type 99 (their ids also
 * start `folder_`, as clients report), `get_media_info` answering a note id (media_type 11) or a
 * signed download URL that only works with the echoed headers, `note/v1/export_note` (format 1 =
 * Markdown, 0 = text) answering a signed `content_url`, and refusing a note its key's user did not
 * write (210005, per note), `note/v1/get_doc_content` with `note_id` and format 0 (plain text).
 * Rate limiting answers HTTP 403 with 200001 "请求频率超限，请稍后重试" and the day's quota HTTP 403
 * with 200005 "请求超量，请明日再试" [3P clients]; both codes and statuses can be overridden per fault.
 *
 * Not imitated (IMA has no public reference; everything here is best-effort):
 * - The auth-failure code (110002), the not-found code (110004) and id formats are invented; only
 *   the messages' wording ("skill auth failed", "not exist") follows client reports.
 * - The skill-version check is off by default: no source shows `ima-openapi-ctx` is required (one
 *   third-party adapter reports correct credentials work without it). `requireSkillVersion` turns
 *   on the one client report of -200 "please upgrade the skill" for a missing or older version [U].
 * - The download host is this server (`/cos/...`, GET); the real one is a separate object store.
 * - get_doc_content's other formats: the skill names only format 0 here (this fake refuses others, 210001).
 * - No note/v1 search or listing actions, no KB detail beyond names, no tags, covers or members.
 * - Search is substring matching; highlight markup (<em>) is a guess; title-only matches give ''.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import {
  generateCorpus,
  reviseDocument,
  snippetAround,
  type CorpusDocument,
  type CorpusOptions,
} from './dingtalk-ima-corpus';
import { delay, FaultPlan, listenLocal, page, readJson, sendJson, type Fault } from './dingtalk-ima-faults';

export interface ImaFakeOptions extends CorpusOptions {
  /** Largest page the fake hands out. @default 5 */
  maxPageSize?: number;
}

export type ImaItemKind = 'note' | 'markdown-file' | 'text-file' | 'pdf';

export interface ImaExpectedItem {
  key: string;
  externalId: string;
  title: string;
  knowledgeBase: string;
  kind: ImaItemKind;
  /** The text a fetch must return (null for files Cairn does not read). */
  markdown: string | null;
}

export interface ImaFakeControl {
  inject(fault: Fault): void;
  clearFaults(): void;
  /** Server-side authorisation lapses ("skill auth failed") until restoreAuth(). */
  revokeAuth(): void;
  restoreAuth(): void;
  /** Answer with `retcode`/`errmsg` instead of `code`/`msg`. @default 'code' */
  envelope: 'code' | 'retcode';
  /**
   * A request whose `ima-openapi-ctx: skill_version=` is missing or older than this answers -200
   * "please upgrade the skill". @default null (not checked)
   */
  requireSkillVersion: string | null;
  /** The `ima-openapi-ctx` header of each request ('' when absent), oldest first. */
  readonly contexts: string[];
  /** Notes (by document key) the key's user did not write: export_note refuses them with 210005. */
  readonly notAuthor: Set<string>;
  maxPageSize: number;
  /** Every request as "METHOD /path", oldest first. */
  readonly requests: string[];
  /** When each of `requests` arrived, by the process clock (`Date.now()`; tests with a fake clock read pacing off it). */
  readonly arrivals: number[];
  /** The item stays listed, but get_media_info answers "not exist". */
  vanish(key: string): void;
  addDocument(partial?: Partial<CorpusDocument>): CorpusDocument;
  changeDocument(key: string, markdown?: string): CorpusDocument;
  deleteDocument(key: string): void;
  /** Every non-folder item a complete listing must return, PDFs included. */
  items(): ImaExpectedItem[];
}

export interface ImaFake {
  baseUrl: string;
  credentials: Record<string, string>;
  control: ImaFakeControl;
  close(): Promise<void>;
}

const MEDIA_TYPE: Record<ImaItemKind | 'folder', number> = {
  pdf: 1,
  'markdown-file': 7,
  'text-file': 8,
  note: 11,
  folder: 99,
};

/** Whether a dotted version is at least another (missing: no). */
function atLeast(version: string | undefined, minimum: string): boolean {
  if (!version) return false;
  const a = version.split('.').map(Number);
  const b = minimum.split('.').map(Number);
  for (let i = 0; i < Math.max(a.length, b.length); i++)
    if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  return true;
}

function hashId(prefix: string, seed: string): string {
  return prefix + createHash('sha1').update(seed).digest('hex').slice(0, 20);
}

function kindOf(doc: CorpusDocument): ImaItemKind {
  const n = Number(doc.key.replace(/\D/g, ''));
  return n % 4 === 0 ? 'markdown-file' : n % 6 === 5 ? 'text-file' : 'note';
}

function plainText(markdown: string): string {
  return markdown
    .split('\n')
    .filter((line) => !line.startsWith('```') && !/^\|\s*-/.test(line))
    .map((line) =>
      line
        .replace(/^#+\s*/, '')
        .replace(/^\|\s*|\s*\|$/g, '')
        .replace(/\s*\|\s*/g, '\t'),
    )
    .join('\n');
}

export async function startImaFake(options: ImaFakeOptions = {}): Promise<ImaFake> {
  const corpus = generateCorpus(options);
  const docs = new Map(corpus.documents.map((doc) => [doc.key, doc]));
  const vanished = new Set<string>();
  const faults = new FaultPlan();
  const timers = new Set<NodeJS.Timeout>();
  const signatures = new Map<string, string>();
  const exports = new Map<string, string>();
  const requests: string[] = [];
  const contexts: string[] = [];
  const arrivals: number[] = [];
  let revoked = false;
  let nextKey = corpus.documents.length + 1;
  const credentials = {
    clientId: 'ima-fake-client-0001',
    apiKey: `ima-key-${randomBytes(12).toString('hex')}`,
  };
  const kbs = corpus.spaces.map((name, space) => ({
    kb_id: hashId('kb', String(space)),
    kb_name: name,
    space,
  }));
  const pdfs = kbs.map((kb) => ({
    key: `pdf-${kb.space}`,
    media_id: hashId('m', `pdf${kb.space}`),
    title: '年度报告 2024.pdf',
    space: kb.space,
  }));
  const folderId = (space: number, path: string[]) =>
    path.length === 0 ? '' : hashId('folder_', `${space}/${path.join('/')}`);
  const mediaId = (key: string) => hashId('m', key);
  const titleOf = (doc: CorpusDocument) =>
    ({
      note: doc.title,
      'markdown-file': `${doc.title}.md`,
      'text-file': `${doc.title}.txt`,
      pdf: doc.title,
    })[kindOf(doc)];

  function children(space: number, folder: string) {
    const items: {
      media_id: string;
      media_type: number;
      title: string;
      parent_folder_id: string;
      tags: string[];
    }[] = [];
    const folders = new Set<string>();
    for (const doc of docs.values()) {
      if (doc.space !== space) continue;
      for (let depth = 1; depth <= doc.folder.length; depth++) {
        const id = folderId(space, doc.folder.slice(0, depth));
        if (folderId(space, doc.folder.slice(0, depth - 1)) !== folder || folders.has(id)) continue;
        folders.add(id);
        items.push({
          media_id: id,
          media_type: MEDIA_TYPE.folder,
          title: doc.folder[depth - 1]!,
          parent_folder_id: folder,
          tags: [],
        });
      }
      if (folderId(space, doc.folder) === folder)
        items.push({
          media_id: mediaId(doc.key),
          media_type: MEDIA_TYPE[kindOf(doc)],
          title: titleOf(doc),
          parent_folder_id: folder,
          tags: [],
        });
    }
    if (folder === '')
      for (const pdf of pdfs.filter((p) => p.space === space))
        items.push({
          media_id: pdf.media_id,
          media_type: MEDIA_TYPE.pdf,
          title: pdf.title,
          parent_folder_id: '',
          tags: [],
        });
    return items;
  }

  function noteOf(noteId: unknown): CorpusDocument | undefined {
    return [...docs.values()].find((d) => hashId('nb', d.key) === String(noteId ?? ''));
  }

  /** A signed export link needs no header: the signature is in the URL (a COS link valid ~3 h, per the skill). */
  function exportDownload(res: ServerResponse, url: URL): void {
    const token = /^\/cos\/exports\/([0-9a-f]+)\.(md|txt)$/.exec(url.pathname)?.[1] ?? '';
    const text = exports.get(token);
    if (text === undefined || !url.searchParams.get('sign'))
      return void res
        .writeHead(403, { 'content-type': 'application/xml' })
        .end('<Error><Code>AccessDenied</Code></Error>');
    res.writeHead(200, { 'content-type': 'text/markdown; charset=utf-8' }).end(text);
  }

  function docByMediaId(id: string): CorpusDocument | undefined {
    for (const doc of docs.values()) if (mediaId(doc.key) === id) return doc;
    return undefined;
  }

  function reply(res: ServerResponse, code: number, msg: string, data?: unknown, status = 200): void {
    sendJson(
      res,
      status,
      control.envelope === 'code'
        ? { code, msg, ...(data === undefined ? {} : { data }) }
        : { retcode: code, errmsg: msg, ...(data === undefined ? {} : { data }) },
    );
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const path = url.pathname;
    requests.push(`${req.method} ${path}`);
    arrivals.push(Date.now());
    const fault = faults.take(path);
    if (fault?.kind === 'server-error')
      return void res
        .writeHead(500, { 'content-type': 'text/html' })
        .end('<html><body>502 Bad Gateway</body></html>');
    if (fault?.kind === 'malformed-json')
      return void res
        .writeHead(200, { 'content-type': 'application/json' })
        .end('{"code":0,"data":{"info_list":[{"kb_');
    if (fault?.kind === 'slow') await delay(fault.delayMs ?? 2000, timers);
    if (path.startsWith('/cos/files/')) return download(req, res, path);
    if (path.startsWith('/cos/exports/')) return exportDownload(res, url);
    if (!path.startsWith('/openapi/wiki/v1/') && !path.startsWith('/openapi/note/v1/'))
      return sendJson(res, 404, { code: 404, msg: 'not found' });
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
    if (
      req.headers['ima-openapi-clientid'] !== credentials.clientId ||
      req.headers['ima-openapi-apikey'] !== credentials.apiKey
    )
      return reply(res, 110002, 'skill auth failed: invalid ima-openapi-clientid or ima-openapi-apikey');
    if (revoked)
      return reply(res, 110002, 'skill auth failed: authorisation has lapsed, authorise again in ima');
    const ctx = String(req.headers['ima-openapi-ctx'] ?? '');
    contexts.push(ctx);
    if (
      control.requireSkillVersion !== null &&
      !atLeast(/skill_version=([\d.]+)/.exec(ctx)?.[1], control.requireSkillVersion)
    )
      return reply(res, -200, 'please upgrade the skill to the latest version');
    if (fault?.kind === 'rate-limit')
      return reply(
        res,
        Number(fault.code ?? 200001),
        '请求频率超限，请稍后重试',
        undefined,
        fault.status ?? 403,
      );
    if (fault?.kind === 'quota')
      return reply(res, Number(fault.code ?? 200005), '请求超量，请明日再试', undefined, fault.status ?? 403);
    const body = (await readJson(req)) as Record<string, unknown> | undefined;
    if (!body) return reply(res, 110001, 'invalid json body');
    const action = path.replace(/^\/openapi\//, '');
    const cursor = typeof body.cursor === 'string' && body.cursor ? body.cursor : undefined;
    const size = Math.min(control.maxPageSize, Number(body.limit) || control.maxPageSize);
    const paged = <T>(key: string, items: T[], pageSize: number) => {
      const slice = page(items, cursor, pageSize);
      return { [key]: slice.items, is_end: slice.next === undefined, next_cursor: slice.next ?? '' };
    };

    switch (action) {
      case 'wiki/v1/search_knowledge_base': {
        if (Number(body.limit) > 20) return reply(res, 51, 'limit should be in [1, 20]');
        const query = String(body.query ?? '').toLowerCase();
        const found = kbs
          .filter((kb) => kb.kb_name.toLowerCase().includes(query))
          .map(({ space, ...kb }) => ({
            ...kb,
            description: '',
            content_count: [...docs.values()].filter((d) => d.space === space).length + 1,
            role_type: '创建者',
            base_type: '个人知识库',
          }));
        return reply(res, 0, 'success', paged('info_list', found, size));
      }
      case 'wiki/v1/get_knowledge_list': {
        const kb = kbs.find((k) => k.kb_id === body.knowledge_base_id);
        if (!kb) return reply(res, 110030, 'no permission for this knowledge base');
        return reply(res, 0, 'success', {
          ...paged('knowledge_list', children(kb.space, String(body.folder_id ?? '')), size),
          current_path: [],
        });
      }
      case 'wiki/v1/search_knowledge': {
        const kb = kbs.find((k) => k.kb_id === body.knowledge_base_id);
        if (!kb) return reply(res, 110030, 'no permission for this knowledge base');
        const query = String(body.query ?? '');
        const hits = [...docs.values()]
          .filter((doc) => doc.space === kb.space)
          .flatMap((doc) => {
            const inText = snippetAround(doc.markdown, query);
            if (inText === null && snippetAround(titleOf(doc), query) === null) return [];
            const highlight =
              inText === null
                ? ''
                : inText.replace(
                    new RegExp(query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i'),
                    (m) => `<em>${m}</em>`,
                  );
            return [
              {
                media_id: mediaId(doc.key),
                title: titleOf(doc),
                parent_folder_id: folderId(doc.space, doc.folder),
                highlight_content: highlight,
              },
            ];
          });
        return reply(res, 0, 'success', paged('info_list', hits, control.maxPageSize));
      }
      case 'wiki/v1/get_media_info':
        return mediaInfo(res, String(body.media_id ?? ''));
      case 'note/v1/get_doc_content': {
        const doc = noteOf(body.note_id);
        if (!doc || vanished.has(doc.key)) return reply(res, 210035, 'note not exist');
        if (Number(body.target_content_format ?? 0) !== 0)
          return reply(res, 210001, 'invalid target_content_format');
        return reply(res, 0, 'success', { content: plainText(doc.markdown) });
      }
      case 'note/v1/export_note': {
        const doc = noteOf(body.note_id);
        if (!doc || vanished.has(doc.key)) return reply(res, 210035, 'note not exist');
        const format = Number(body.target_content_format);
        if (format !== 0 && format !== 1) return reply(res, 210001, 'invalid target_content_format');
        if (control.notAuthor.has(doc.key)) return reply(res, 210005, '非笔记作者，无权限导出');
        const token = randomBytes(10).toString('hex');
        exports.set(token, format === 1 ? doc.markdown : plainText(doc.markdown));
        const ext = format === 1 ? 'md' : 'txt';
        return reply(res, 0, 'success', {
          content_url: `${baseUrl}/cos/exports/${token}.${ext}?sign=${randomBytes(6).toString('hex')}`,
        });
      }
      default:
        return reply(res, 110001, `unknown action ${action}`);
    }
  }

  function mediaInfo(res: ServerResponse, id: string): void {
    const pdf = pdfs.find((p) => p.media_id === id);
    const doc = docByMediaId(id);
    if ((!pdf && !doc) || (doc && vanished.has(doc.key)))
      return reply(res, 110004, 'media not exist or has been deleted');
    if (doc && kindOf(doc) === 'note')
      return reply(res, 0, 'success', {
        media_type: MEDIA_TYPE.note,
        notebook_ext_info: { notebook_id: hashId('nb', doc.key) },
      });
    const signature = randomBytes(8).toString('hex');
    signatures.set(id, signature);
    const ext = pdf ? '.pdf' : kindOf(doc!) === 'text-file' ? '.txt' : '.md';
    const expires = Math.floor(Date.now() / 1000) + 600;
    reply(res, 0, 'success', {
      media_type: pdf ? MEDIA_TYPE.pdf : MEDIA_TYPE[kindOf(doc!)],
      url_info: {
        url: `${baseUrl}/cos/files/${id}${ext}?sign=${signature}&t=${expires}`,
        headers: { 'x-ima-cos-sign': signature },
      },
    });
  }

  function download(req: IncomingMessage, res: ServerResponse, path: string): void {
    const match = /^\/cos\/files\/([^/.]+)\.(md|txt|pdf)$/.exec(path);
    const id = match?.[1] ?? '';
    if (!signatures.has(id) || req.headers['x-ima-cos-sign'] !== signatures.get(id))
      return void res
        .writeHead(403, { 'content-type': 'application/xml' })
        .end('<Error><Code>AccessDenied</Code></Error>');
    if (match?.[2] === 'pdf')
      return void res
        .writeHead(200, { 'content-type': 'application/pdf' })
        .end(Buffer.from('%PDF-1.4\n%\xe2\xe3\n', 'latin1'));
    const doc = docByMediaId(id);
    if (!doc) return void res.writeHead(404).end();
    res
      .writeHead(200, {
        'content-type': `text/${match?.[2] === 'txt' ? 'plain' : 'markdown'}; charset=utf-8`,
      })
      .end(doc.markdown);
  }

  const control: ImaFakeControl = {
    requireSkillVersion: null,
    contexts,
    inject: (fault) => faults.inject(fault),
    clearFaults: () => faults.clear(),
    revokeAuth: () => void (revoked = true),
    restoreAuth: () => void (revoked = false),
    envelope: 'code',
    notAuthor: new Set<string>(),
    maxPageSize: options.maxPageSize ?? 5,
    requests,
    arrivals,
    vanish: (key) => void vanished.add(key),
    addDocument(partial = {}) {
      const key = `doc-${String(nextKey++).padStart(4, '0')}`;
      const doc: CorpusDocument = {
        key,
        title: `New note ${key}`,
        markdown: `# New note ${key}\n\n同步期间新增。\n`,
        language: 'en',
        space: 0,
        folder: [],
        updatedAt: new Date().toISOString(),
        ...partial,
      };
      docs.set(key, doc);
      return doc;
    },
    changeDocument(key, markdown) {
      const doc = reviseDocument(docs.get(key)!, markdown);
      docs.set(key, doc);
      return doc;
    },
    deleteDocument: (key) => void docs.delete(key),
    items: () => [
      ...[...docs.values()].map((doc) => ({
        key: doc.key,
        externalId: mediaId(doc.key),
        title: titleOf(doc),
        knowledgeBase: corpus.spaces[doc.space]!,
        kind: kindOf(doc),
        markdown: doc.markdown,
      })),
      ...pdfs.map((pdf) => ({
        key: pdf.key,
        externalId: pdf.media_id,
        title: pdf.title,
        knowledgeBase: corpus.spaces[pdf.space]!,
        kind: 'pdf' as const,
        markdown: null,
      })),
    ],
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => sendJson(res, 500, { code: 500, msg: String(err) }));
  });
  const { baseUrl, close } = await listenLocal(server, timers);
  return { baseUrl, credentials, control, close };
}
