import type { ChunkLocation, CoreMessage, Platform } from '@shared/models';

/** One document as a platform lists it, before any content is fetched. */
export interface DocumentRef {
  /** The platform's id, unique within a connection. */
  externalId: string;
  title: string;
  /** Knowledge base / space / repo / folder name the document lives in. */
  knowledgeBase: string;
  /** The original link, or a file path for local folders. */
  url: string | null;
  /** ISO 8601 time of the last remote edit, where the platform gives it. */
  remoteUpdatedAt: string | null;
  /**
   * A cheap change marker (revision id, version id, mtime+size). Equal to the stored one means
   * "unchanged" without fetching; null means the engine must fetch and compare hashes.
   */
  revision: string | null;
}

export interface FetchedDocument {
  /** Full text as Markdown (ignored when `parts` is given). */
  markdown: string;
  /** A better title learned while fetching (e.g. the first heading of a local file). */
  title?: string;
  /**
   * Where the document sits inside its knowledge base, outermost first (e.g. the Yuque TOC groups
   * and parent documents above it). It goes in front of every chunk's heading path, so it is
   * searchable and shown with each passage.
   */
  breadcrumb?: string[];
  /**
   * What the reader should know about this text although it was read (indexed) fine: the platform
   * returned less than the document holds (a bitable answered with no rows, a table cut at Cairn's
   * cap). Recorded as a note on the run (status `partial`) and shown on the card, by `reason`.
   */
  notice?: DocumentNotice;
  /**
   * The text in parts that each sit at one place of the original (PDF pages, slides, sheet row
   * groups), in order. The engine normalises each part and joins them with a blank line, so every
   * chunk learns the location of the parts it covers (sync/located-text.ts).
   */
  parts?: LocatedPart[];
}

/** A caveat about a fetched document's text (`FetchedDocument.notice`). */
export interface DocumentNotice {
  /** A stable code the UI groups and translates (`feishu.bitable-no-rows`, `feishu.bitable-truncated`). */
  reason: string;
  /** The English sentence (CLI, logs, and the UI's fallback). */
  message: string;
  /** Values the translated sentence names (a table, a row count). */
  params?: Record<string, string>;
}

/** A stretch of a document's Markdown and where it sits in the original file. */
export interface LocatedPart {
  markdown: string;
  location: ChunkLocation | null;
}

/** One hit of a platform's own search (direct mode). */
export interface DirectHit {
  externalId: string;
  title: string;
  snippet: string;
  url: string | null;
  knowledgeBase: string;
}

/**
 * What a connection cannot do, as a stable code (the UI translates known codes, e.g.
 * `dingtalk.no-stream`) plus the English sentence (CLI, logs, and the UI's fallback).
 */
export interface Limitation {
  code: string;
  message: string;
}

/** An item seen by a listing and deliberately not indexed. */
export interface SkippedItem {
  externalId: string;
  title: string;
  /** A stable reason code the UI groups and translates (`folder.too-large`, `feishu.no-text-api`). */
  reason: string;
  /** The English sentence saying why. */
  message: string;
  /**
   * The platform's kind of item Cairn cannot turn into text (e.g. a Feishu `mindnote`, a Yuque
   * `board`): such items are counted per kind on the card rather than listed one by one.
   */
  kind?: string;
}

/** A part of the source a listing could not see. */
export interface ListingGap {
  /**
   * The documents stored under it (an external id, or its `prefix/` descendants) stay, since only a
   * complete listing proves absence. '' is the whole connection: nothing is deleted this run.
   */
  prefix: string;
  reason: string;
  /** What could not be listed, in English (with `error`, the run appends the error's own message). */
  message: string;
  /** Why, when a platform call failed: the run records its code and message (credentials redacted). */
  error?: unknown;
}

/** What a listing tells the run beside the documents it yields. */
export interface ListingReport {
  /** Seen and deliberately not indexed: recorded with its reason, never fetched, never a failure. */
  skipped(item: SkippedItem): void;
  /** A part that could not be listed; the listing went on without it. */
  incomplete(gap: ListingGap): void;
}

/** A gap for a part of a platform's listing that failed with `error` (e.g. a Yuque user's teams). */
export function platformGap(error: unknown, what: string): ListingGap {
  return { prefix: '', reason: 'listing.incomplete', message: what, error };
}

/**
 * Errors meaning "the platform says stop for now" (a request limit or quota): the document that
 * met it and every one not yet fetched are deferred to the next sync, never counted as failed.
 */
export const DEFERRING_CODES: ReadonlySet<string> = new Set(['RATE_LIMITED', 'QUOTA_EXCEEDED']);

export interface ConnectorCapabilities {
  /** False when the platform cannot give full text; the connection then offers direct search only. */
  fullText: boolean;
  search: boolean;
  experimental: boolean;
  /** Shown on the connection when something is limited. */
  limitation: Limitation | null;
}

/**
 * A knowledge source. One platform, one file, one implementation (STYLE.md §4).
 * Methods throw CairnError with a precise code (AUTH_INVALID, AUTH_EXPIRED, PERMISSION_DENIED,
 * RATE_LIMITED, SOURCE_UNREACHABLE, NOT_FOUND, …) and honour the AbortSignal.
 */
export interface Connector {
  readonly platform: Platform;
  readonly capabilities: ConnectorCapabilities;
  /**
   * "Test connection": checks credentials, permission and reachability. Returns a human message,
   * or a message with a code and params where the UI can say it in its own language (a folder's
   * file counts).
   */
  validate(signal?: AbortSignal): Promise<string | CoreMessage>;
  /**
   * Every document of the connection, paging through the platform's lists. `report` hears what
   * was seen but not listed (unreadable kinds, files left out) and which parts could not be listed.
   */
  list(signal?: AbortSignal, report?: ListingReport): AsyncIterable<DocumentRef>;
  /** Full text of one listed document. */
  fetch(ref: DocumentRef, signal?: AbortSignal): Promise<FetchedDocument>;
  /** The platform's own search (direct mode). */
  search(query: string, options: { limit: number; signal?: AbortSignal }): Promise<DirectHit[]>;
  /** Platforms whose user authorisation comes from a browser sign-in (OAuth code + PKCE). */
  readonly userSignIn?: UserSignIn;
  dispose?(): Promise<void> | void;
}

/**
 * What the app-level sign-in flow (core/app/user-auth-service.ts) needs from a platform: the
 * authorize page and the code exchange. The flow owns PKCE, state and the loopback redirect.
 */
export interface UserSignIn {
  /** The loopback port registered as the redirect URL in the platform's console; 0 takes any free port (fakes). */
  readonly redirectPort: number;
  authorizeUrl(input: { redirectUri: string; state: string; codeChallenge: string }): string;
  /** Exchanges the code; returns the secret fields to store (e.g. `{ userRefreshToken }`). */
  exchangeCode(input: {
    code: string;
    redirectUri: string;
    codeVerifier: string;
    signal?: AbortSignal;
  }): Promise<Record<string, string>>;
}

/** What a connector is built from: non-secret config plus secrets read from the secret store. */
export interface ConnectorInit {
  /**
   * The saved connection this connector is built for (absent for a draft being tested). Connectors
   * of one connection share state keyed by it, e.g. Feishu's single-use refresh token.
   */
  connectionId?: string;
  config: Record<string, string | number | boolean>;
  secrets: Record<string, string>;
  /** Lets connectors persist rotated tokens (e.g. OAuth refresh-token rotation). */
  saveSecrets?: (secrets: Record<string, string>) => Promise<void>;
  /**
   * Replaces one rotated secret: stores `next` only where the store still holds `previous`, so a
   * rotation by any connector of the connection lands, and nothing lands over a sign-out or an edit.
   */
  rotateSecret?: (field: string, previous: string, next: string) => Promise<void>;
  /** The stored user authorisation was refused for good (expired, revoked, reused): the UI offers sign-in again. */
  onUserAuthLost?: () => void;
  logger: import('../logging/logger').Logger;
}

export type ConnectorFactory = (init: ConnectorInit) => Connector;

/**
 * One platform's connector, described: the registry is a table of these (STYLE.md §4). Fields,
 * labels and the default base URL are PLATFORM_INFO (src-shared/platforms.ts), shared with the UI
 * and the CLI; what can be known without building a connector is answered here, cheaply, from
 * config and the NAMES of stored secrets (listing connections must not build connectors).
 */
export interface ConnectorDescriptor {
  platform: Platform;
  /** Offers a browser sign-in (`Connector.userSignIn`). */
  userSignIn: boolean;
  /** What a connection with this config cannot do, as its connector would say it; null when nothing. */
  limitation(config: ConnectorInit['config'], secretFields: readonly string[]): Limitation | null;
  /**
   * False when a connection with this config gets no full text (its connector's
   * `capabilities.fullText`): it is created in direct mode and cannot be switched to RAG. @default true
   */
  fullText?(config: ConnectorInit['config'], secretFields: readonly string[]): boolean;
  /**
   * Makes the factory that builds connectors. Called once per registry (one app): a platform
   * whose connectors share something, such as DingTalk's one Stream connection per app, makes it here.
   */
  createFactory(): ConnectorFactory;
}
