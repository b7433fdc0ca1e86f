/**
 * A generated folder of Markdown notes, Chinese and English, for integration tests: deterministic
 * text, a few subfolders, some notes long enough to make several chunks, and a unique marker word
 * per note so a search can prove one exact note is (or is no longer) in the index.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

const ZH_TOPICS = [
  '报销流程',
  '差旅政策',
  '年假制度',
  '数据备份',
  '发布流程',
  '权限管理',
  '接口限流',
  '知识库迁移',
];
const EN_TOPICS = [
  'expense claims',
  'travel policy',
  'annual leave',
  'database backups',
  'release process',
  'access control',
  'rate limiting',
  'wiki migration',
];
const FOLDERS = ['', 'handbook', 'engineering', '团队/周报'];

/** The unique word of note n: pinyin-free and stemmer-proof, e.g. "zqx0042". */
export function markerOf(n: number): string {
  return `zqx${String(n).padStart(4, '0')}`;
}

export function notePath(n: number): string {
  const folder = FOLDERS[n % FOLDERS.length]!;
  const name = `note-${String(n).padStart(4, '0')}.md`;
  return folder ? `${folder}/${name}` : name;
}

export function noteMarkdown(n: number, version = 1): string {
  const chinese = n % 2 === 0;
  const topic = chinese ? ZH_TOPICS[n % ZH_TOPICS.length]! : EN_TOPICS[n % EN_TOPICS.length]!;
  // Every seventh note runs long enough to be cut into several chunks.
  const sections = n % 7 === 0 ? 6 : 2;
  const lines: string[] = [chinese ? `# ${topic}（第 ${n} 篇）` : `# Notes on ${topic} #${n}`, ''];
  lines.push(
    chinese
      ? `本文是第 ${n} 篇笔记，版本 ${version}，标记词 ${markerOf(n)}。`
      : `This is note ${n}, version ${version}, marker ${markerOf(n)}.`,
    '',
  );
  for (let s = 1; s <= sections; s++) {
    lines.push(chinese ? `## 第 ${s} 节` : `## Section ${s}`, '');
    const sentence = chinese
      ? `关于${topic}，团队约定第 ${s} 步先在测试环境验证，再逐步推广，并把结论写进知识库，方便新同事查阅。`
      : `For ${topic}, step ${s} is verified in staging first, then rolled out gradually, and the outcome is written down for new colleagues.`;
    lines.push(Array.from({ length: sections > 2 ? 5 : 1 }, () => sentence).join(chinese ? '' : ' '), '');
  }
  return lines.join('\n');
}

/** Writes notes 1..count into root. */
export function writeFolderCorpus(root: string, count: number): void {
  for (let n = 1; n <= count; n++) writeNote(root, n);
}

export function writeNote(root: string, n: number, version = 1, markdown = noteMarkdown(n, version)): void {
  const path = join(root, ...notePath(n).split('/'));
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, markdown);
}

/** Every Markdown file under root as externalId (relative path with "/") → text. */
export function readFolder(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.md'))
        files.set(relative(root, path).split(sep).join('/'), readFileSync(path, 'utf8'));
    }
  };
  walk(root);
  return files;
}
