/**
 * The small page the browser shows after the platform redirects to Cairn's loopback address.
 * Bilingual, self-contained (no script, no outside resources) and never echoing a query value
 * unescaped, because anything on the machine can open this address.
 */

export type CallbackOutcome = 'signed-in' | 'denied' | 'failed' | 'unknown-request' | 'used';

const TEXT: Record<CallbackOutcome, { title: string; en: string; zh: string }> = {
  'signed-in': {
    title: 'Cairn: signed in / 已登录',
    en: 'Cairn is signed in. You can close this tab.',
    zh: 'Cairn 已登录，可以关闭此页。',
  },
  denied: {
    title: 'Cairn: sign-in cancelled / 已取消登录',
    en: 'You declined the sign-in. You can close this tab and try again from Cairn.',
    zh: '您拒绝了授权。可以关闭此页，并在 Cairn 中重试。',
  },
  failed: {
    title: 'Cairn: sign-in failed / 登录失败',
    en: 'Cairn could not finish the sign-in. You can close this tab; Cairn shows the reason.',
    zh: 'Cairn 未能完成登录。可以关闭此页，原因会显示在 Cairn 中。',
  },
  'unknown-request': {
    title: 'Cairn: unknown sign-in / 未知的登录请求',
    en: 'This sign-in does not belong to the one Cairn is waiting for. You can close this tab.',
    zh: '此登录请求与 Cairn 正在等待的不一致。可以关闭此页。',
  },
  used: {
    title: 'Cairn: link already used / 链接已使用',
    en: 'This sign-in link was already used. You can close this tab.',
    zh: '此登录链接已被使用。可以关闭此页。',
  },
};

export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

export function callbackPage(outcome: CallbackOutcome, detail?: string): string {
  const text = TEXT[outcome];
  const extra = detail ? `<p class="detail">${escapeHtml(detail)}</p>` : '';
  return (
    `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(text.title)}</title>` +
    '<style>body{font-family:system-ui,sans-serif;display:flex;min-height:90vh;align-items:center;justify-content:center;background:#f6f5f2;color:#222}main{max-width:32rem;padding:2rem;background:#fff;border-radius:8px}p{line-height:1.5}.detail{color:#666;font-size:.9rem}</style></head>' +
    `<body><main data-outcome="${outcome}"><p>${escapeHtml(text.en)}</p><p lang="zh">${escapeHtml(text.zh)}</p>${extra}</main></body></html>`
  );
}
