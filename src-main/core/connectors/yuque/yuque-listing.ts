/**
 * Lists a Yuque account's documents: the user's knowledge bases, then each team's (an optional part:
 * when the teams or one team's bases cannot be listed, the rest goes on and the run records why),
 * each base's docs (offset/limit, 100 a page, until meta.total) and its TOC (the documents' places).
 * Fields the spec leaves optional are handled where they can be missing: a base is addressed by id
 * or by namespace, a user or team by login or id.
 */
import type { z } from 'zod';
import { createHash } from 'node:crypto';
import { CairnError, isAbortError } from '../../errors';
import type { Logger } from '../../logging/logger';
import { DEFERRING_CODES, platformGap, type DocumentRef, type ListingReport } from '../connector';
import type { HttpRequest } from '../http/platform-http';
import { unexpectedResponse } from '../http/response-shape';
import {
  DocsAnswer,
  GroupsAnswer,
  ReposAnswer,
  TocAnswer,
  UserAnswer,
  type YuqueBook,
  type YuqueDoc,
} from './yuque-schemas';
import { breadcrumbsFromToc } from './yuque-toc';
import { countOf } from '../../text/plural';

export const TOKEN_HELP =
  'Create a token at https://www.yuque.com/settings/tokens (API tokens need a paid membership); a team token must use the team’s space host as base URL, e.g. https://<space>.yuque.com/api/v2.';

/** The spec's maximum `limit` for repos and docs, and the fixed page size of groups. */
const PAGE_LIMIT = 100;

export interface YuqueListingContext {
  get<T>(
    endpoint: string,
    path: string,
    query: HttpRequest['query'],
    schema: z.ZodType<T>,
    signal: AbortSignal | undefined,
  ): Promise<T>;
  logger: Logger;
  siteOrigin: string;
}

export interface ListedYuqueDoc {
  ref: DocumentRef;
  breadcrumb: string[];
}

/** login, else the numeric id, as the spec's `{login}`/`{id}` path parameters accept either. */
function ownerKey(owner: { login?: string | null; id?: number | null } | null | undefined): string | null {
  if (owner?.login) return owner.login;
  return owner?.id !== null && owner?.id !== undefined ? String(owner.id) : null;
}

/** Errors a listing must not swallow: a cancel, and the platform saying stop (the run defers then). */
function mustStop(error: unknown): boolean {
  return isAbortError(error) || (error instanceof CairnError && DEFERRING_CODES.has(error.code));
}

export async function reposOf(
  ctx: YuqueListingContext,
  kind: 'users' | 'groups',
  login: string,
  signal: AbortSignal | undefined,
): Promise<{ repos: YuqueBook[] }> {
  const repos: YuqueBook[] = [];
  for (let offset = 0; ; offset += PAGE_LIMIT) {
    const page = await ctx.get(
      `/${kind}/{login}/repos`,
      `/${kind}/${encodeURIComponent(login)}/repos`,
      { offset, limit: PAGE_LIMIT },
      ReposAnswer,
      signal,
    );
    repos.push(...page.data);
    if (page.data.length < PAGE_LIMIT) return { repos };
  }
}

async function groupsOf(ctx: YuqueListingContext, who: string, signal: AbortSignal | undefined) {
  const groups: { login?: string | null; id?: number | null; name?: string | null }[] = [];
  for (let offset = 0; ; offset += PAGE_LIMIT) {
    const page = await ctx.get(
      '/users/{id}/groups',
      `/users/${encodeURIComponent(who)}/groups`,
      { offset },
      GroupsAnswer,
      signal,
    );
    groups.push(...page.data);
    // "PageSize 固定为 100": a short page (or the single object the schema declares) is the last one.
    if (page.data.length < PAGE_LIMIT) return groups;
  }
}

/** Runs an optional part of the listing; its failure is reported, not thrown. */
async function optional<T>(
  report: ListingReport | undefined,
  logger: Logger,
  what: string,
  work: () => Promise<T>,
): Promise<T | null> {
  try {
    return await work();
  } catch (error) {
    if (mustStop(error)) throw error;
    if (report) report.incomplete(platformGap(error, what));
    else logger.warn(`${what}; listing the rest`, { error });
    return null;
  }
}

function revisionOf(doc: YuqueDoc, breadcrumb: string[]): string | null {
  // updated_at also moves on a rename, which the index must see; a move in the TOC changes the breadcrumb.
  const updated = doc.updated_at ?? doc.content_updated_at ?? null;
  if (updated === null || breadcrumb.length === 0) return updated;
  return `${updated}#${createHash('sha256').update(breadcrumb.join('\u0000')).digest('hex').slice(0, 12)}`;
}

export async function* listYuqueDocuments(
  ctx: YuqueListingContext,
  signal: AbortSignal | undefined,
  report: ListingReport | undefined,
): AsyncGenerator<ListedYuqueDoc> {
  const user = (await ctx.get('/user', '/user', undefined, UserAnswer, signal)).data;
  const who = ownerKey(user);
  if (!who)
    throw unexpectedResponse(
      { platform: 'Yuque', endpoint: 'GET /api/v2/user' },
      'data.login',
      'is missing (and so is data.id)',
    );
  const books = new Map<string, YuqueBook>();
  const add = (book: YuqueBook) => {
    const key = book.id !== null && book.id !== undefined ? `id:${book.id}` : `ns:${book.namespace ?? ''}`;
    if (!books.has(key)) books.set(key, book);
  };
  (await reposOf(ctx, 'users', who, signal)).repos.forEach(add);
  const groups =
    (await optional(report, ctx.logger, `The teams of Yuque user ${who} could not be listed`, () =>
      groupsOf(ctx, who, signal),
    )) ?? [];
  for (const group of groups) {
    const key = ownerKey(group);
    if (!key) continue;
    const found = await optional(
      report,
      ctx.logger,
      `The knowledge bases of Yuque team ${group.name ?? key} could not be listed`,
      () => reposOf(ctx, 'groups', key, signal),
    );
    found?.repos.forEach(add);
  }
  for (const book of books.values()) yield* docsOf(ctx, book, signal, report);
}

async function* docsOf(
  ctx: YuqueListingContext,
  book: YuqueBook,
  signal: AbortSignal | undefined,
  report: ListingReport | undefined,
): AsyncGenerator<ListedYuqueDoc> {
  const byId = book.id !== null && book.id !== undefined;
  const base = byId ? `/repos/${book.id}` : book.namespace ? `/repos/${book.namespace}` : null;
  const template = byId ? '/repos/{book_id}' : '/repos/{group_login}/{book_slug}';
  const name = book.name ?? book.namespace ?? book.slug ?? 'Yuque';
  if (!base) {
    report?.incomplete(
      platformGap(
        unexpectedResponse(
          { platform: 'Yuque', endpoint: 'GET /api/v2/users/{login}/repos' },
          'data[].id',
          'is missing (and so is namespace)',
        ),
        `A Yuque knowledge base ("${name}") could not be opened`,
      ),
    );
    return;
  }
  const toc = await optional(
    undefined,
    ctx.logger,
    `The TOC of Yuque knowledge base "${name}" could not be read`,
    () => ctx.get(`${template}/toc`, `${base}/toc`, undefined, TocAnswer, signal),
  );
  const places = breadcrumbsFromToc(toc?.data ?? []);
  let total = Number.POSITIVE_INFINITY;
  let missingIds = 0;
  for (let offset = 0; offset < total; offset += PAGE_LIMIT) {
    const page = await ctx.get(
      `${template}/docs`,
      `${base}/docs`,
      { offset, limit: PAGE_LIMIT },
      DocsAnswer,
      signal,
    );
    total = page.meta?.total ?? (page.data.length < PAGE_LIMIT ? 0 : Number.POSITIVE_INFINITY);
    for (const doc of page.data) {
      if (doc.id === null || doc.id === undefined) {
        missingIds += 1;
        continue;
      }
      const externalId = String(doc.id);
      const title = doc.title ?? doc.slug ?? externalId;
      if (doc.type === 'Board') {
        report?.skipped({
          externalId,
          title,
          kind: 'board',
          reason: 'yuque.board',
          message: 'A Yuque board (图集) holds drawings, not text.',
        });
        continue;
      }
      const breadcrumb = places.get(doc.id) ?? [];
      const namespace = book.namespace ?? doc.book?.namespace;
      yield {
        breadcrumb,
        ref: {
          externalId,
          title,
          knowledgeBase: name,
          url: namespace && doc.slug ? `${ctx.siteOrigin}/${namespace}/${doc.slug}` : null,
          remoteUpdatedAt: doc.content_updated_at ?? doc.updated_at ?? null,
          revision: revisionOf(doc, breadcrumb),
        },
      };
    }
    if (page.data.length === 0) break; // never loop on a total that disagrees with the pages
  }
  if (missingIds > 0)
    report?.incomplete(
      platformGap(
        unexpectedResponse(
          { platform: 'Yuque', endpoint: `GET /api/v2${template}/docs` },
          'data[].id',
          `is missing on ${countOf(missingIds, 'document')}`,
        ),
        `Some documents of Yuque knowledge base "${name}" could not be listed`,
      ),
    );
}
