/**
 * The CPU of indexing outside Postgres (clean, chunk, the built-in embedder's analysis and hashing,
 * the keyword text) for the 10k-chunk bench corpus, in this tree and in another checkout (OLD, e.g.
 * a `git worktree add --detach` of an older commit), interleaved old/new in one process.
 * Run: OLD=/path/to/checkout ROUNDS=3 npx tsx scripts/measure/index-cpu-ab.ts
 * COMPARE=1 (optionally COMPARE_FILE=texts.json, a JSON array of strings) instead checks that both
 * trees' embedders give bit-identical vectors and equal keyword texts.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { generateDocument } from '../../bench/corpus';
import * as newChunker from '../../src-main/core/chunking/chunker';
import * as newClean from '../../src-main/core/text/clean-markdown';
import * as newNorm from '../../src-main/core/text/normalize';
import * as newInput from '../../src-main/core/index/embedding-input';
import { BuiltinEmbedder as NewEmbedder } from '../../src-main/core/embedding/builtin-embedder';
async function main() {
  const OLD = process.env.OLD ?? '/tmp/idx-8f9bd84';
  const oldChunker = await import(`${OLD}/src-main/core/chunking/chunker`);
  const oldInput = await import(`${OLD}/src-main/core/index/embedding-input`);
  const oldNorm = await import(`${OLD}/src-main/core/text/normalize`).catch(() => null);
  const { BuiltinEmbedder: OldEmbedder } = await import(`${OLD}/src-main/core/embedding/builtin-embedder`);

  const docs: { title: string; markdown: string }[] = [];
  for (let i = 0, chunks = 0; chunks < 10000; i++) {
    const d = generateDocument(i, { seed: 1 });
    docs.push(d);
    chunks += newChunker.chunkMarkdown(d.markdown).length;
  }
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const oldE = new OldEmbedder();
  const newE = new NewEmbedder();
  async function runOld() {
    const t: Record<string, number> = { clean: 0, chunk: 0, embed: 0, keyword: 0 };
    let n = 0;
    for (const d of docs) {
      let c = cpu();
      const md = oldNorm?.normalizeText ? oldNorm.normalizeText(d.markdown) : d.markdown;
      t.clean += cpu() - c;
      c = cpu();
      const chunks = oldChunker.chunkMarkdown(md);
      t.chunk += cpu() - c;
      c = cpu();
      const inputs = chunks.map((ch: { headingPath: string; text: string }) =>
        oldInput.embeddingInput({ title: d.title, headingPath: ch.headingPath, text: ch.text }),
      );
      await oldE.embed(inputs);
      t.embed += cpu() - c;
      c = cpu();
      for (const ch of chunks)
        oldInput.keywordInput({ title: d.title, headingPath: ch.headingPath, text: ch.text });
      t.keyword += cpu() - c;
      n += chunks.length;
    }
    return { n, ...t };
  }
  async function runNew() {
    const t: Record<string, number> = { clean: 0, chunk: 0, embed: 0, keyword: 0 };
    let n = 0;
    for (const d of docs) {
      let c = cpu();
      const { markdown } = newClean.cleanMarkdown(newNorm.normalizeText(d.markdown));
      t.clean += cpu() - c;
      c = cpu();
      const chunks = newChunker.chunkMarkdown(markdown);
      t.chunk += cpu() - c;
      c = cpu();
      const inputs = chunks.map((ch) =>
        newInput.embeddingInput({ title: d.title, headingPath: ch.headingPath, text: ch.text }),
      );
      const r = await newE.embed(inputs, { keywordTexts: true });
      t.embed += cpu() - c;
      c = cpu();
      chunks.forEach((ch, i) =>
        newInput.withKeywordExtras(r.keywordTexts![i]!, { text: ch.text, metadata: '' }),
      );
      t.keyword += cpu() - c;
      n += chunks.length;
    }
    return { n, ...t };
  }
  if (process.env.COMPARE) {
    // Same vectors (bit for bit) and keyword texts from both trees, on the corpus and on extra texts.
    const extra = process.env.COMPARE_FILE
      ? (JSON.parse(readFileSync(process.env.COMPARE_FILE, 'utf8')) as string[])
      : [];
    const texts = [
      ...docs.flatMap((d) =>
        newChunker
          .chunkMarkdown(d.markdown)
          .map((ch) =>
            newInput.embeddingInput({ title: d.title, headingPath: ch.headingPath, text: ch.text }),
          ),
      ),
      ...extra,
    ];
    const a = await oldE.embed(texts, { keywordTexts: true });
    const b = await newE.embed(texts, { keywordTexts: true });
    let vectorDiff = 0,
      keywordDiff = 0;
    texts.forEach((_, i) => {
      if (Buffer.compare(Buffer.from(a.vectors[i]!.buffer), Buffer.from(b.vectors[i]!.buffer)) !== 0)
        vectorDiff++;
      if (a.keywordTexts?.[i] !== b.keywordTexts?.[i]) keywordDiff++;
    });
    console.log(
      `compared ${texts.length} texts: ${vectorDiff} vectors and ${keywordDiff} keyword texts differ`,
    );
    return;
  }
  const rounds = Number(process.env.ROUNDS ?? 3);
  for (let r = 0; r < rounds; r++) {
    for (const [name, fn] of [
      ['old', runOld],
      ['new', runNew],
    ] as const) {
      const res = await fn();
      console.log(
        name,
        r,
        JSON.stringify(Object.fromEntries(Object.entries(res).map(([k, v]) => [k, Math.round(v)]))),
        loadavg()[0].toFixed(1),
      );
    }
  }
}
void main();
