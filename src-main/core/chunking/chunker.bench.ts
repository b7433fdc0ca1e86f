// Rough timings for large and degenerate inputs: `npx tsx src-main/core/chunking/chunker.bench.ts`.
// Not a test (no timing asserts); numbers go into reviews and the benchmarks issue.
import { chunkMarkdown } from './chunker';
import { hanSentence, latinSentence, seededRandom } from '../../testing/markdown-fixtures';

function repeatUntil(length: number, make: (index: number) => string): string {
  const parts: string[] = [];
  let total = 0;
  for (let index = 0; total < length; index++) {
    const part = make(index);
    parts.push(part);
    total += part.length;
  }
  return parts.join('');
}

function measure(name: string, source: string): void {
  const started = performance.now();
  const chunks = chunkMarkdown(source);
  const elapsed = performance.now() - started;
  const lengths = chunks.map((chunk) => chunk.text.length).sort((a, b) => a - b);
  const median = lengths[Math.floor(lengths.length / 2)] ?? 0;
  console.log(
    `${name.padEnd(28)} ${(source.length / 1e6).toFixed(2)}M chars → ${String(chunks.length).padStart(5)} chunks in ${elapsed.toFixed(0).padStart(5)} ms` +
      ` (min ${lengths[0] ?? 0}, median ${median}, max ${lengths.at(-1) ?? 0})`,
  );
}

const random = seededRandom(1);
const sentence = (index: number) => (index % 3 === 0 ? hanSentence(random) : `${latinSentence(random)} `);
measure(
  '5 MB mixed Markdown',
  repeatUntil(5_000_000, (index) => {
    let body = '';
    const bodyLength = 200 + Math.floor(random() * 4000);
    while (body.length < bodyLength) body += sentence(index);
    return `## Section ${index}\n\n${body}\n\n\`\`\`ts\nconst x = ${index};\n# not a heading\n\`\`\`\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n`;
  }),
);
measure('5 MB one paragraph', 'word '.repeat(1_000_000));
measure(
  '5 MB Chinese sentences',
  repeatUntil(5_000_000, () => hanSentence(random)),
);
measure('5 MB one code block', `\`\`\`\n${'let a = 1; // code line\n'.repeat(210_000)}\`\`\`\n`);
measure('4.5 MB tiny sections', '## h\n\nx\n\n'.repeat(500_000));
measure('200 KB line, no breaks', 'x'.repeat(200_000));
measure('200 KB line of Han', '汉'.repeat(200_000));
measure('200 KB line of emoji', '😀'.repeat(100_000));
