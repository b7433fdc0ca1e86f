/**
 * Starts a fake platform server by hand so anyone can try Cairn end to end without accounts:
 *   npx tsx src-main/testing/fakes/run-fake.ts <platform> [--docs N]
 * (npm run fake:<platform>). Prints the base URL, working sample credentials and the matching
 * `cairn add …` command, then runs until Ctrl-C.
 */
import { pathToFileURL } from 'node:url';
import type { Platform } from '@shared/models';
import { PLATFORM_INFO } from '@shared/platforms';
import { startDingTalkFake } from './dingtalk-fake';
import { startFeishuFake } from './feishu-fake';
import { startImaFake } from './ima-fake';
import { startYuqueFake } from './yuque-fake';

export interface RunningFake {
  baseUrl: string;
  /** Keyed by the platform's credential field keys (src-shared/platforms.ts) where they match. */
  credentials: Record<string, string>;
  /** Checkbox options (`type: 'boolean'` fields) the printed command turns on, e.g. DingTalk's streamEvents. */
  options?: Record<string, boolean>;
  close(): Promise<void>;
}

export type FakeStarter = (options: { documents?: number }) => Promise<RunningFake>;

/** One line per platform: each fake registers its starter here. */
export const FAKES: Partial<Record<Platform, FakeStarter>> = {
  yuque: (options) => startYuqueFake(options),
  feishu: (options) => startFeishuFake({ ...options, platform: 'feishu' }),
  lark: (options) => startFeishuFake({ ...options, platform: 'lark' }),
  // Full text comes from the fake's blocks API; --stream-events adds its Stream export as a fallback.
  dingtalk: (options) => startDingTalkFake(options),
  ima: (options) => startImaFake(options),
};

function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The text printed for a running fake: URL, credentials, and a `cairn add` command that works. */
export function describeFake(platform: Platform, fake: RunningFake): string {
  const info = PLATFORM_INFO[platform];
  const values: Record<string, string> = { ...fake.credentials, baseUrl: fake.baseUrl };
  const fieldKeys = new Set(info.fields.map((field) => field.key));
  const flags = info.fields.flatMap((field) => {
    if (field.type === 'boolean') return fake.options?.[field.key] ? [field.flag] : [];
    return values[field.key] ? [`${field.flag} ${shellQuote(values[field.key]!)}`] : [];
  });
  const lines = [
    `Fake ${info.label.en} API (${info.label.zh}) listening at ${fake.baseUrl}`,
    '',
    'Sample credentials (fake, safe to share):',
    ...Object.entries(fake.credentials).map(
      ([key, value]) => `  ${key}${fieldKeys.has(key) ? '' : ' (optional connection setting)'}: ${value}`,
    ),
    '',
    'Add it to Cairn:',
    `  cairn add ${platform} --name ${shellQuote(`${info.label.en} (fake)`)} --mode rag ${flags.join(' ')}`,
  ];
  if (fake.credentials.userRefreshToken) {
    lines.push(
      '',
      'The user refresh token is single-use: Cairn stores the rotated one. Restart the fake for a fresh one.',
    );
    // The fake accepts any loopback redirect, so port 0 (a free one) works; a real app needs its registered port.
    lines.push(
      'Or try the browser sign-in instead: leave out --user-refresh-token, add --redirect-port 0, then run',
      `  cairn authorize ${shellQuote(`${info.label.en} (fake)`)}`,
      '(the fake approves at once).',
    );
  }
  lines.push('', 'Press Ctrl-C to stop.');
  return lines.join('\n');
}

export async function main(
  argv: string[],
  out: NodeJS.WritableStream = process.stdout,
): Promise<RunningFake | null> {
  const platform = argv[0] as Platform | undefined;
  const starter = platform ? FAKES[platform] : undefined;
  if (!platform || !starter) {
    process.stderr.write(`Usage: run-fake.ts <${Object.keys(FAKES).join('|')}> [--docs N]\n`);
    process.exitCode = 2;
    return null;
  }
  const docsAt = argv.indexOf('--docs');
  const documents = docsAt >= 0 ? Number(argv[docsAt + 1]) : undefined;
  if (documents !== undefined && (!Number.isInteger(documents) || documents < 1)) {
    process.stderr.write('--docs needs a positive whole number\n');
    process.exitCode = 2;
    return null;
  }
  const fake = await starter({ documents });
  out.write(describeFake(platform, fake) + '\n');
  return fake;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  void main(process.argv.slice(2)).then((fake) => {
    if (!fake) return;
    const stop = () => void fake.close().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
