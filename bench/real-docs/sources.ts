/**
 * The public documentation the real-documents collection is built from, pinned to commits so
 * every build yields the same corpus. Nothing of these repositories is committed here (the build
 * script reads a local clone or bare git directory): only our own questions are.
 *
 * - pingcap/docs-cn: TiDB's Chinese documentation. Licence: CC BY-SA 3.0 (its LICENSE file).
 * - tikv/website: TiKV's English documentation (content/docs/7.1). The repository carries no
 *   LICENSE file; TiKV is a CNCF project, whose documentation is published under CC BY 4.0
 *   (CNCF charter, IP policy). We redistribute none of it, only quote short answer strings
 *   (configuration names and values) in the questions, for the citation check.
 */
export interface RealDocsSource {
  /** Prefix of the document ids (and the name in `--repo <name>=<git dir>` on the command line). */
  name: string;
  repository: string;
  commit: string;
  licence: string;
  /** Markdown paths taken (relative to the repository root). */
  include: (path: string) => boolean;
}

export const REAL_DOCS_SOURCES: readonly RealDocsSource[] = [
  {
    name: 'docs-cn',
    repository: 'https://github.com/pingcap/docs-cn',
    commit: 'ae9ab0fd89873986fabc4c8873d77d46ba76f066',
    licence: 'CC BY-SA 3.0',
    // Every Markdown page, navigation files (TOC*.md) included on purpose: they must rank below content.
    include: (path) => path.endsWith('.md') && !path.split('/').some((part) => part.startsWith('.')),
  },
  {
    name: 'tikv',
    repository: 'https://github.com/tikv/website',
    commit: 'cb76ae73cb53d6a126a57796456a364af2a77fa3',
    licence: 'CC BY 4.0 (CNCF project documentation; no LICENSE file in the repository)',
    include: (path) => path.startsWith('content/docs/7.1/') && path.endsWith('.md'),
  },
];
