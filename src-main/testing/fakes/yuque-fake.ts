/**
 * A fake Yuque (语雀) Open API v2 server on 127.0.0.1, imitating connectors.md §2.5 and serving
 * responses that validate against ../shared/yuque-openapi.json (yuque-fake.test.ts checks).
 *
 * Imitated (docs/connectors.md "Yuque", every item from the spec unless marked): X-Auth-Token auth
 * (401 {message}); GET /api/v2/user, /users/{login|id}/groups (a list by default, the single
 * V2Group object the spec declares with `groupsShape: 'object'`), /users/{login}/repos,
 * /groups/{login}/repos (offset/limit ≤ 100); /repos/{ns|book_id}/docs with offset/limit,
 * meta.total, changed_at_gte, deleted, optional_properties=latest_version_id; /repos/{ns|book_id}/toc
 * (V2TocItem: TITLE groups, nested DOCs, parent/sibling/child uuids); doc detail by
 * /repos/{ns}/docs/{slug|id}, /repos/{book_id}/docs/{id}, /repos/docs/{id} with
 * format/body/body_html/body_lake, body_sheet for the Sheet doc and body_table for the Table doc
 * (paged by page/page_size ≤ 200); /search with required q and type, fixed page size 20, `<em>`
 * highlights, a site-relative url; errors as real HTTP statuses with {message} (the body shape is
 * what the official yuque-mcp-server reads; the spec gives none); 429 (访问频率超限) for injected
 * faults and, with `hourlyQuota`, once a token's requests in the current "hour" pass it (a test
 * budget: Yuque documents no number; `control.newHour()` starts the next hour). `siteUrl` is the
 * site root a user may type instead of the API URL (`baseUrl`).
 * Lake documents carry Markdown in `body` (as Tencent/WeKnora report from the live API, [3P]), or
 * an empty body with `lakeBody: 'empty'` (the spec only says "raw body").
 *
 * Not imitated: writes (POST/PUT/DELETE), doc versions, statistics, group members, repo detail,
 * tags/hits, the "space host" rule (a team token answering 404 on www.yuque.com), OAuth apps,
 * the exact status for a bad parameter (the spec lists 400 and 422 without saying which; this
 * fake answers 400 for paging and 422 for a bad time), and rate-limit headers (none are
 * documented; `Retry-After` is sent only when a test asks for one).
 */
import { randomBytes } from 'node:crypto';
import {
  FaultInjector,
  highlightSnippet,
  pageOf,
  startFakeServer,
  type Fault,
  type FakeRequest,
  type FakeResponse,
  type FaultOptions,
  type RecordedRequest,
} from './fake-server';
import type { CorpusOptions } from './fixtures/corpus';
import { FixtureStore, type DocumentChange, type NewFixtureDocument } from './fixtures/fixture-store';
import { blocksToSearchText } from './fixtures/markup';
import {
  bookShape,
  docDetailShape,
  docShape,
  FAKE_GROUP,
  FAKE_USER,
  groupShape,
  namespaceOf,
  reposFor,
  specialDocuments,
  tocShape,
  userShape,
  type LakeBody,
  type YuqueDocument,
  type YuqueRepo,
} from './fixtures/yuque-shapes';

export interface YuqueFakeOptions extends CorpusOptions {
  /** @default 'yuque-fake-token-0123456789abcdef' */
  token?: string;
  /** Adds a Sheet, a Board and a Table document to the first repo. @default true */
  specialDocuments?: boolean;
  /** What lake documents carry in `body`. @default 'markdown' */
  lakeBody?: LakeBody;
  /** How /users/{id}/groups answers: a list, or the single object the spec's schema declares. @default 'list' */
  groupsShape?: 'list' | 'object';
  /** Requests a token may make per "hour" before 429 (访问频率超限); none by default. */
  hourlyQuota?: number;
}

export interface YuqueFakeControl {
  store: FixtureStore;
  requests: RecordedRequest[];
  inject(fault: Fault, options?: FaultOptions): void;
  /** The current token now answers 401 (revoked or expired). */
  expireToken(): void;
  /** The user makes a new token on Yuque: it works, every earlier one answers 401. Returns it. */
  issueToken(): string;
  /** Every token this fake has issued, first (`credentials.token`) to latest, for secret checks. */
  issuedTokens(): string[];
  /** Authenticated, but repos/docs/search answer 403 (a token without the read scope). */
  denyPermission(deny: boolean): void;
  changeDocument(fixtureId: number, change: DocumentChange): void;
  deleteDocument(fixtureId: number): void;
  addDocument(input?: NewFixtureDocument): number;
  vanishAfterListing(fixtureId: number): void;
  /** The connector's externalId for a fixture document. */
  externalIdOf(fixtureId: number): string;
  /** The titles above a document in its repo's TOC (outermost first). */
  breadcrumbOf(fixtureId: number): string[];
  /** Starts the next hour of the hourly quota. */
  newHour(): void;
  /** Authenticated requests counted against the quota this hour. */
  requestsThisHour(): number;
}

export interface YuqueFake {
  baseUrl: string;
  /** The site root (`https://<space>.yuque.com` on Yuque): what a user may type instead of `baseUrl`. */
  siteUrl: string;
  credentials: { token: string };
  control: YuqueFakeControl;
  close(): Promise<void>;
}

const SEARCH_PAGE_SIZE = 20;

export async function startYuqueFake(options: YuqueFakeOptions = {}): Promise<YuqueFake> {
  const firstToken = options.token ?? 'yuque-fake-token-0123456789abcdef';
  const tokens = [firstToken];
  let token = firstToken;
  const store = new FixtureStore(options);
  const repos = reposFor(store.knowledgeBases);
  const extras = options.specialDocuments === false ? [] : specialDocuments(0, Date.now());
  const faults = new FaultInjector();
  let tokenValid = true;
  let permissionDenied = false;
  let requestsThisHour = 0;

  function documentsOf(repo: YuqueRepo): YuqueDocument[] {
    // Every fifth corpus doc is stored in Yuque's lake format (no Markdown body).
    const docs: YuqueDocument[] = store
      .list(repo.knowledgeBase)
      .map((fixture) => ({ fixture, type: 'Doc', format: fixture.id % 5 === 2 ? 'lake' : 'markdown' }));
    return docs.concat(extras.filter((e) => e.fixture.knowledgeBase === repo.knowledgeBase));
  }

  function findRepo(segments: string[]): YuqueRepo | undefined {
    if (segments.length === 1) return repos.find((r) => String(r.id) === segments[0]);
    return repos.find((r) => r.owner.login === segments[0] && r.slug === segments[1]);
  }

  function findDocument(
    idOrSlug: string,
    repo?: YuqueRepo,
  ): { document: YuqueDocument; repo: YuqueRepo } | undefined {
    for (const candidate of repo ? [repo] : repos) {
      const document = documentsOf(candidate).find(
        (d) => String(d.fixture.id) === idOrSlug || d.fixture.slug === idOrSlug,
      );
      if (!document) continue;
      // A vanished fixture is still listed but no longer fetchable.
      if (document.type === 'Doc' && !store.get(document.fixture.id)) return undefined;
      return { document, repo: candidate };
    }
    return undefined;
  }

  const bookOf = (repo: YuqueRepo) => bookShape(repo, documentsOf(repo));
  const error = (status: number, message: string): FakeResponse => ({ status, body: { message } });
  const offsetLimit = (url: URL): { offset: number; limit: number } | FakeResponse => {
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const limit = Number(url.searchParams.get('limit') ?? 100);
    if (!Number.isInteger(offset) || offset < 0 || !Number.isInteger(limit) || limit < 1)
      return error(400, 'offset/limit must be non-negative integers');
    if (limit > 100) return error(400, 'limit must be less than or equal to 100');
    return { offset, limit };
  };

  function reposResponse(owner: string, url: URL): FakeResponse {
    const paging = offsetLimit(url);
    if ('status' in paging) return paging;
    const owned = repos.filter((r) => r.owner.login === owner || String(r.owner.id) === owner);
    if (owned.length === 0 && owner !== FAKE_USER.login && owner !== FAKE_GROUP.login)
      return error(404, 'Not Found');
    const page = pageOf(owned, paging.offset, paging.limit);
    return { status: 200, body: { data: page.items.map(bookOf) } };
  }

  function docsResponse(repo: YuqueRepo, url: URL): FakeResponse {
    const paging = offsetLimit(url);
    if ('status' in paging) return paging;
    const book = bookOf(repo);
    const since = url.searchParams.get('changed_at_gte');
    const sinceMs = since ? Date.parse(since) : Number.NEGATIVE_INFINITY;
    if (Number.isNaN(sinceMs)) return error(422, 'changed_at_gte must be an ISO 8601 time');
    const latestVersion = (url.searchParams.get('optional_properties') ?? '')
      .split(',')
      .includes('latest_version_id');
    const rows =
      url.searchParams.get('deleted') === 'true'
        ? store
            .listDeleted(repo.knowledgeBase)
            .filter((d) => d.deletedAt >= sinceMs)
            .map((d) =>
              docShape({ fixture: d, type: 'Doc', format: 'markdown' }, repo, book, {
                deletedAt: d.deletedAt,
              }),
            )
        : documentsOf(repo)
            .filter((d) => d.fixture.updatedAt >= sinceMs)
            .map((d) => docShape(d, repo, book, { latestVersion }));
    const page = pageOf(rows, paging.offset, paging.limit);
    return { status: 200, body: { meta: { total: rows.length }, data: page.items } };
  }

  function searchResponse(url: URL): FakeResponse {
    const q = url.searchParams.get('q');
    const type = url.searchParams.get('type');
    if (!q) return error(400, 'q is required');
    if (type !== 'doc' && type !== 'repo') return error(400, 'type must be doc or repo');
    const page = Number(url.searchParams.get('page') ?? 1);
    if (!Number.isInteger(page) || page < 1 || page > 100)
      return error(400, 'page must be between 1 and 100');
    const scope = url.searchParams.get('scope');
    const inScope = (repo: YuqueRepo) => !scope || namespaceOf(repo) === scope || repo.owner.login === scope;
    const hits: Record<string, unknown>[] = [];
    for (const repo of repos.filter(inScope)) {
      const book = bookOf(repo);
      if (type === 'repo') {
        if (repo.name.toLowerCase().includes(q.toLowerCase()))
          hits.push({
            id: repo.id,
            type: 'repo',
            title: emphasise(repo.name, q),
            summary: repo.description,
            url: `/${namespaceOf(repo)}`,
            info: repo.owner.name,
            target: book,
          });
        continue;
      }
      for (const document of documentsOf(repo)) {
        const snippet = highlightSnippet(
          blocksToSearchText(document.fixture.title, document.fixture.blocks),
          q,
          '<em>',
          '</em>',
        );
        if (!snippet) continue;
        hits.push({
          id: document.fixture.id,
          type: 'doc',
          title: emphasise(document.fixture.title, q),
          summary: snippet,
          url: `/${namespaceOf(repo)}/${document.fixture.slug}`,
          info: `${repo.owner.name} / ${repo.name}`,
          target: docShape(document, repo, book),
        });
      }
    }
    const slice = pageOf(hits, (page - 1) * SEARCH_PAGE_SIZE, SEARCH_PAGE_SIZE);
    return {
      status: 200,
      body: { meta: { total: hits.length, pageNo: page, pageSize: SEARCH_PAGE_SIZE }, data: slice.items },
    };
  }

  function handle(request: FakeRequest): FakeResponse {
    if (request.method !== 'GET') return error(404, 'Not Found');
    if (!request.path.startsWith('/api/v2/')) return error(404, 'Not Found');
    if (request.headers['x-auth-token'] !== token || !tokenValid) return error(401, 'Unauthorized');
    requestsThisHour += 1;
    if (options.hourlyQuota !== undefined && requestsThisHour > options.hourlyQuota)
      return error(429, 'Too Many Requests');
    const segments = request.path.slice('/api/v2/'.length).split('/').filter(Boolean).map(decodeURIComponent);
    const [head, ...rest] = segments;
    if (head === 'hello') return { status: 200, body: { data: { message: `Hello ${FAKE_USER.name}` } } };
    if (head === 'user' && rest.length === 0)
      return {
        status: 200,
        body: { data: userShape(FAKE_USER, repos.filter((r) => r.owner === FAKE_USER).length) },
      };
    if (head === 'users' && rest[1] === 'groups' && rest.length === 2) {
      if (rest[0] !== FAKE_USER.login && rest[0] !== String(FAKE_USER.id)) return error(404, 'Not Found');
      const offset = Number(request.url.searchParams.get('offset') ?? 0);
      const groups = pageOf(
        [groupShape(FAKE_GROUP, repos.filter((r) => r.owner === FAKE_GROUP).length)],
        offset,
        100,
      ).items;
      if (options.groupsShape === 'object') return { status: 200, body: { data: groups[0] ?? {} } };
      return { status: 200, body: { data: groups } };
    }
    if (permissionDenied) return error(403, 'Forbidden: this token cannot read repos');
    if ((head === 'users' || head === 'groups') && rest[1] === 'repos' && rest.length === 2)
      return reposResponse(rest[0]!, request.url);
    if (head === 'search' && rest.length === 0) return searchResponse(request.url);
    if (head !== 'repos') return error(404, 'Not Found');
    if (rest[0] === 'docs' && rest.length === 2) return detailResponse(findDocument(rest[1]!), request.url);
    if (rest.at(-1) === 'toc') {
      const repo = findRepo(rest.slice(0, -1));
      if (!repo) return error(404, 'Not Found');
      return { status: 200, body: { data: tocShape(documentsOf(repo)).items } };
    }
    const docsAt = rest.indexOf('docs');
    const repo = docsAt > 0 ? findRepo(rest.slice(0, docsAt)) : undefined;
    if (!repo) return error(404, 'Not Found');
    if (rest.length === docsAt + 1) return docsResponse(repo, request.url);
    if (rest.length === docsAt + 2) return detailResponse(findDocument(rest[docsAt + 1]!, repo), request.url);
    return error(404, 'Not Found');
  }

  function detailResponse(
    found: { document: YuqueDocument; repo: YuqueRepo } | undefined,
    url: URL,
  ): FakeResponse {
    if (!found) return error(404, 'Not Found');
    const page = Number(url.searchParams.get('page') ?? 1);
    const pageSize = Number(url.searchParams.get('page_size') ?? 100);
    if (!Number.isInteger(page) || page < 1 || !Number.isInteger(pageSize) || pageSize < 1 || pageSize > 200)
      return error(400, 'page must be at least 1 and page_size between 1 and 200');
    const detail = docDetailShape(found.document, found.repo, bookOf(found.repo), {
      lakeBody: options.lakeBody,
      tablePage: page,
      tablePageSize: pageSize,
    });
    return { status: 200, body: { data: detail } };
  }

  const server = await startFakeServer({
    faults,
    handle,
    renderFault: (fault): FakeResponse => {
      if (fault.kind === 'server-error') return { status: 500, body: { message: 'Internal Server Error' } };
      const headers: Record<string, string> =
        fault.resetSeconds === undefined ? {} : { 'retry-after': String(fault.resetSeconds) };
      return { status: 429, headers, body: { message: 'Too Many Requests' } };
    },
  });

  const control: YuqueFakeControl = {
    store,
    requests: server.requests,
    inject: (fault, faultOptions) => faults.inject(fault, faultOptions),
    expireToken: () => void (tokenValid = false),
    issueToken: () => {
      token = `yuque-fake-token-${tokens.length}-${randomBytes(12).toString('hex')}`;
      tokens.push(token);
      tokenValid = true;
      return token;
    },
    issuedTokens: () => [...tokens],
    denyPermission: (deny) => void (permissionDenied = deny),
    changeDocument: (id, change) => void store.change(id, change),
    deleteDocument: (id) => store.delete(id),
    addDocument: (input) => store.add(input).id,
    vanishAfterListing: (id) => store.vanishAfterListing(id),
    externalIdOf: (id) => String(id),
    breadcrumbOf: (id) => {
      for (const repo of repos) {
        const found = tocShape(documentsOf(repo)).breadcrumbs.get(id);
        if (found) return found;
      }
      return [];
    },
    newHour: () => void (requestsThisHour = 0),
    requestsThisHour: () => requestsThisHour,
  };
  return {
    baseUrl: `${server.origin}/api/v2`,
    siteUrl: server.origin,
    credentials: { token: firstToken },
    control,
    close: server.close,
  };
}

function emphasise(text: string, query: string): string {
  const index = text.toLowerCase().indexOf(query.toLowerCase());
  return index < 0
    ? text
    : `${text.slice(0, index)}<em>${text.slice(index, index + query.length)}</em>${text.slice(index + query.length)}`;
}
