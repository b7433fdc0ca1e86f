/** Serves the built renderer (out/renderer) with the per-run token injected into index.html. */
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, relative, isAbsolute } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
};

export interface StaticFile {
  body: Buffer;
  contentType: string;
}

/** Reads a file under `root`, or null when it does not exist or the path escapes the root. */
export async function readStaticFile(root: string, urlPath: string): Promise<StaticFile | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const target = normalize(join(root, decoded));
  const rel = relative(root, target);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return null;
  try {
    if (!(await stat(target)).isFile()) return null;
    return {
      body: await readFile(target),
      contentType: CONTENT_TYPES[extname(target).toLowerCase()] ?? 'application/octet-stream',
    };
  } catch {
    return null;
  }
}

/** Puts the token where the renderer's transport adapter looks for it (a meta tag: CSP forbids inline scripts). */
export function injectToken(html: string, token: string): string {
  const meta = `<meta name="cairn-token" content="${token}">`;
  return html.includes('</head>') ? html.replace('</head>', `  ${meta}\n  </head>`) : meta + html;
}
