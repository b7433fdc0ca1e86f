/** What the Add-connection form asks for, per platform. Pure data shared by UI, CLI and core. */
import type { Platform } from './models';

export interface CredentialField {
  key: string;
  /** Stored in the secret store (never in config, logs, the renderer or the index). */
  secret: boolean;
  required: boolean;
  label: { en: string; zh: string };
  placeholder?: string;
  /** CLI flag, e.g. "--app-secret". */
  flag: string;
  /** A line under the field in the Add form. */
  hint?: { en: string; zh: string };
  /** A checkbox (stored as `true` in config; the CLI flag takes no value) instead of a text input. @default 'text' */
  type?: 'text' | 'boolean';
  /** Rarely needed: the form shows it under "Advanced", closed unless it has a value. */
  advanced?: boolean;
}

export interface PlatformInfo {
  platform: Platform;
  label: { en: string; zh: string };
  experimental: boolean;
  /** Default API base URL; `baseUrl` overrides it (private deployments, team hosts, fakes). */
  defaultBaseUrl: string | null;
  fields: CredentialField[];
  /** Groups of optional fields of which at least one must be given (DingTalk: userId or unionId). */
  requireOneOf?: readonly (readonly string[])[];
  note?: { en: string; zh: string };
}

/**
 * The loopback port of the Feishu/Lark sign-in's redirect URL (http://127.0.0.1:<port>/callback).
 * Feishu matches registered redirect URLs exactly, so the port is fixed; docs/connectors.md says why.
 */
export const FEISHU_SIGN_IN_DEFAULT_PORT = 18765;

/** The redirect URL a Feishu/Lark app must register for Cairn's sign-in. */
export function feishuRedirectUrl(port: number = FEISHU_SIGN_IN_DEFAULT_PORT): string {
  return `http://127.0.0.1:${port}/callback`;
}

/**
 * Scopes the Feishu/Lark sign-in asks for unless the connection's `oauthScopes` replaces them.
 * offline_access returns a refresh token; the others are what search v2, My Library and document
 * content, spreadsheets (sheets:spreadsheet:read) and bitables (bitable:app:readonly) need with a user
 * token (docs/connectors.md, "Feishu/Lark user sign-in").
 */
export const FEISHU_SIGN_IN_DEFAULT_SCOPES: readonly string[] = [
  'offline_access',
  'search:docs:read',
  'wiki:wiki:readonly',
  'docs:document.content:read',
  'docx:document:readonly',
  'sheets:spreadsheet:read',
  'bitable:app:readonly',
];

const defaultScopes = FEISHU_SIGN_IN_DEFAULT_SCOPES.join(' ');

const feishuUserFields: CredentialField[] = [
  {
    key: 'userRefreshToken',
    secret: true,
    required: false,
    flag: '--user-refresh-token',
    label: { en: 'User refresh token (optional)', zh: '用户 refresh token（可选）' },
    hint: {
      en: 'Leave empty: after adding, use “Sign in” on the connection for search and My Library.',
      zh: '可留空：添加后在连接卡片上点击“登录”，即可使用搜索与我的文档库。',
    },
  },
  {
    key: 'redirectPort',
    secret: false,
    required: false,
    flag: '--redirect-port',
    label: { en: 'Sign-in port (optional)', zh: '登录回调端口（可选）' },
    placeholder: String(FEISHU_SIGN_IN_DEFAULT_PORT),
    hint: {
      en: `Register ${feishuRedirectUrl()} (with your port, if you change it) as a redirect URL in the app's Security settings.`,
      zh: `请在应用的“安全设置”中把 ${feishuRedirectUrl()}（如改了端口则用您的端口）添加为重定向 URL。`,
    },
  },
  {
    key: 'oauthScopes',
    secret: false,
    required: false,
    advanced: true,
    flag: '--oauth-scopes',
    label: { en: 'Sign-in scopes (optional)', zh: '登录授权范围（可选）' },
    placeholder: defaultScopes,
    hint: {
      en: `Space-separated; replaces the default list: ${defaultScopes}. offline_access is always added. The app must have each scope enabled, or the sign-in page shows error 20027.`,
      zh: `以空格分隔，填写后替换默认列表：${defaultScopes}。offline_access 始终会加上。每项权限都须在开发者后台为应用开通，否则登录页会显示错误 20027。`,
    },
  },
];

const baseUrl: CredentialField = {
  key: 'baseUrl',
  secret: false,
  required: false,
  flag: '--base-url',
  label: { en: 'API base URL (optional)', zh: 'API 地址（可选）' },
};

export const PLATFORM_INFO: Record<Platform, PlatformInfo> = {
  folder: {
    platform: 'folder',
    label: { en: 'Local folder', zh: '本地文件夹' },
    experimental: false,
    defaultBaseUrl: null,
    fields: [
      {
        key: 'path',
        secret: false,
        required: true,
        flag: '--path',
        label: { en: 'Folder path', zh: '文件夹路径' },
        placeholder: '~/notes',
      },
      {
        key: 'exclude',
        secret: false,
        required: false,
        flag: '--exclude',
        label: { en: 'Leave out (optional)', zh: '排除（可选）' },
        placeholder: 'drafts/, *.tmp, archive/**',
        hint: {
          en: 'Patterns in .gitignore syntax, separated by commas. Tool folders (.git, node_modules, .obsidian, .trash) and the folder’s .gitignore are always left out.',
          zh: '.gitignore 语法的规则，用逗号分隔。工具文件夹（.git、node_modules、.obsidian、.trash）及文件夹自带的 .gitignore 始终排除。',
        },
      },
      {
        key: 'noWatch',
        secret: false,
        required: false,
        type: 'boolean',
        flag: '--no-watch',
        label: {
          en: 'Do not watch for changes (sync on demand and every 24 h only)',
          zh: '不监视变更（仅手动同步及每 24 小时同步）',
        },
      },
    ],
  },
  feishu: {
    platform: 'feishu',
    label: { en: 'Feishu', zh: '飞书' },
    experimental: false,
    defaultBaseUrl: 'https://open.feishu.cn',
    fields: [
      baseUrl,
      {
        key: 'appId',
        secret: false,
        required: true,
        flag: '--app-id',
        label: { en: 'App ID', zh: 'App ID' },
        placeholder: 'cli_…',
      },
      {
        key: 'appSecret',
        secret: true,
        required: true,
        flag: '--app-secret',
        label: { en: 'App secret', zh: 'App Secret' },
      },
      ...feishuUserFields,
    ],
    note: {
      en: 'Add the app to each knowledge space you want indexed; search and My Library need you to sign in after adding.',
      zh: '请把应用添加为各知识空间成员；搜索与我的文档库需要在添加后登录授权。',
    },
  },
  lark: {
    platform: 'lark',
    label: { en: 'Lark', zh: 'Lark' },
    experimental: false,
    defaultBaseUrl: 'https://open.larksuite.com',
    fields: [
      baseUrl,
      {
        key: 'appId',
        secret: false,
        required: true,
        flag: '--app-id',
        label: { en: 'App ID', zh: 'App ID' },
        placeholder: 'cli_…',
      },
      {
        key: 'appSecret',
        secret: true,
        required: true,
        flag: '--app-secret',
        label: { en: 'App secret', zh: 'App Secret' },
      },
      ...feishuUserFields,
    ],
  },
  yuque: {
    platform: 'yuque',
    label: { en: 'Yuque', zh: '语雀' },
    experimental: false,
    defaultBaseUrl: 'https://www.yuque.com/api/v2',
    fields: [
      {
        ...baseUrl,
        label: {
          en: 'API base URL or site root (team tokens need the space host)',
          zh: 'API 地址或站点根地址（团队 Token 需使用空间域名）',
        },
        placeholder: 'https://<space>.yuque.com',
        hint: {
          en: 'A site root gets /api/v2 added; a full API URL is used as it is.',
          zh: '填写站点根地址时会自动加上 /api/v2；完整的 API 地址按原样使用。',
        },
      },
      {
        key: 'token',
        secret: true,
        required: true,
        flag: '--token',
        label: { en: 'Personal or team token', zh: '个人或团队 Token' },
      },
    ],
    note: { en: 'Yuque API tokens need a paid membership.', zh: '语雀 API Token 需要付费会员。' },
  },
  dingtalk: {
    platform: 'dingtalk',
    label: { en: 'DingTalk', zh: '钉钉' },
    experimental: false,
    defaultBaseUrl: 'https://api.dingtalk.com',
    fields: [
      {
        ...baseUrl,
        hint: {
          en: 'Leave empty: the region decides (api.dingtalk.com, or api.dingtalk.io for the international edition).',
          zh: '可留空：按区域自动选择（api.dingtalk.com；国际版为 api.dingtalk.io）。',
        },
      },
      {
        key: 'international',
        secret: false,
        required: false,
        type: 'boolean',
        flag: '--international',
        label: { en: 'DingTalk international edition (dingtalk.io)', zh: '钉钉国际版（dingtalk.io）' },
      },
      {
        key: 'appKey',
        secret: false,
        required: true,
        flag: '--app-key',
        label: { en: 'App key', zh: 'AppKey' },
      },
      {
        key: 'appSecret',
        secret: true,
        required: true,
        flag: '--app-secret',
        label: { en: 'App secret', zh: 'AppSecret' },
      },
      {
        key: 'userId',
        secret: false,
        required: false,
        flag: '--user-id',
        label: { en: 'Your userId (admin console → Contacts)', zh: '您的 userId（管理后台 → 通讯录）' },
      },
      {
        key: 'operatorId',
        secret: false,
        required: false,
        flag: '--operator-id',
        label: { en: 'Or your unionId (operatorId)', zh: '或直接填写 unionId（operatorId）' },
      },
      {
        key: 'streamEvents',
        secret: false,
        required: false,
        type: 'boolean',
        flag: '--stream-events',
        label: {
          en: 'Receive full text over DingTalk Stream (needs the document event subscription in the developer console)',
          zh: '通过钉钉 Stream 接收全文（需在开发者后台订阅文档事件）',
        },
      },
      {
        key: 'oapiBaseUrl',
        secret: false,
        required: false,
        advanced: true,
        flag: '--oapi-base-url',
        label: { en: 'Legacy API URL (optional)', zh: '旧版 API 地址（可选）' },
        hint: {
          en: 'Where “Query user details” (userId → unionId) is served. Empty: the oapi. host beside the API host.',
          zh: '“查询用户详情”（userId → unionId）所在地址。留空：使用与 API 地址对应的 oapi. 域名。',
        },
      },
    ],
    requireOneOf: [['userId', 'operatorId']],
    note: {
      en: 'Give your userId or your unionId: every call is made on behalf of that user. App permissions: Wiki.Workspace.Read (knowledge bases), Wiki.Node.Read (documents), Storage.File.Read (text), qyapi_get_member (only to look up a userId). Stream adds the Markdown export for documents the blocks API cannot read.',
      zh: '请填写 userId 或 unionId：所有调用都以该用户身份进行。应用权限：Wiki.Workspace.Read（知识库）、Wiki.Node.Read（文档列表）、Storage.File.Read（正文）、qyapi_get_member（仅按 userId 查询时需要）。开启 Stream 后，块接口读不到的文档可通过 Markdown 导出补全。',
    },
  },
  ima: {
    platform: 'ima',
    label: { en: 'Tencent IMA', zh: '腾讯 IMA' },
    experimental: true,
    defaultBaseUrl: 'https://ima.qq.com',
    fields: [
      baseUrl,
      {
        key: 'clientId',
        secret: false,
        required: true,
        flag: '--client-id',
        label: { en: 'Client ID', zh: 'Client ID' },
      },
      {
        key: 'apiKey',
        secret: true,
        required: true,
        flag: '--api-key',
        label: { en: 'API key', zh: 'API Key' },
      },
    ],
    note: {
      en: 'Experimental: IMA’s agent OpenAPI is documented only inside the ima skill package.',
      zh: '实验性：IMA 的 OpenAPI 仅在 ima skill 包内有说明。',
    },
  },
};
