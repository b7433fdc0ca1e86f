/**
 * The built-in local models. Pure data; the shape and its rules are in catalog.ts, the reasons for
 * each choice and every measurement in docs/decisions/local-models.md.
 *
 * Pins (revision, size, SHA-256) were read from public pinning code and release notes found
 * through the code search index (identified by its file ids, since the index does not name the
 * repository); each ONNX and tokenizer pin below appears in at least two independent sources. An
 * unknown value is null, never guessed: downloads verify every byte against these values.
 * Quality figures are the model cards' and papers', not measured here (no real weights can be
 * downloaded on the build machine). `cpuMsPerChunk` / `cpuMsPerPair` were measured here on
 * random-weight models of the exact architecture (npm run bench -- --models).
 */
import type { CatalogEntry } from './catalog';

const BGE_FAQ_FLOOR =
  'provisional: BGE v1.5 "alleviates" v1\'s [0.6, 1] similarity band (FlagEmbedding FAQ); calibrate on real weights (impossible on the build machine)';

export const BUILTIN_CATALOG: readonly CatalogEntry[] = [
  {
    kind: 'embedder',
    id: 'bge-small-zh-v1.5',
    name: 'BGE small zh v1.5 (int8)',
    summary: {
      en: 'Recommended for Chinese and mixed Chinese/English notes: small, fast, best C-MTEB retrieval of the small models.',
      zh: '推荐：适合中文及中英混合笔记；体积小、速度快，小模型中 C-MTEB 检索得分最高。',
    },
    source: { repo: 'Xenova/bge-small-zh-v1.5', revision: '75c43b069aac4d136ba6bc1122f995fedcfd2781' },
    upstream: 'BAAI/bge-small-zh-v1.5',
    files: [
      {
        path: 'onnx/model_quantized.onnx',
        role: 'onnx',
        size: 24_010_842,
        sha256: '15b717c382bcb518ba457b93ea6850ede7f4f1cd8937454aa06972366cd19bcc',
      },
      {
        path: 'tokenizer.json',
        role: 'tokenizer',
        size: 439_125,
        sha256: '48cea5d44424912a6fd1ea647bf4fe50b55ab8b1e5879c3275f80e339e8fae26',
      },
      {
        path: 'tokenizer_config.json',
        role: 'config',
        size: 367,
        sha256: 'e6f3b96db926a37d4039995fbf5ad17de158dfb8f6343d607e4dbaad18d75f5a',
      },
    ],
    licence: 'MIT',
    languages: ['zh', 'en'],
    quality: [
      { metric: 'C-MTEB retrieval', value: '61.77', source: 'FlagEmbedding research/C_MTEB/README.md' },
      {
        metric: 'C-MTEB average (35 tasks)',
        value: '57.82',
        source: 'FlagEmbedding research/C_MTEB/README.md',
      },
    ],
    pinSource:
      'code index ids 69025648143, 69617293834, 70236212268, 58402114557 (revision, sizes, SHA-256s agree)',
    recommended: 'default',
    dimensions: 512,
    maxTokens: 512,
    maxWindows: 3,
    pooling: 'cls',
    normalize: true,
    // FlagEmbedding's instruction for short query → passage retrieval (README, mteb model_prompts_zh).
    queryPrefix: '为这个句子生成表示以用于检索相关文章：',
    documentPrefix: '',
    output: 'last_hidden_state',
    similarityFloor: 0.35,
    floorSource: BGE_FAQ_FLOOR,
    recipe: 'r1',
    cpuMsPerChunk: 56.9,
    separateQueryLane: true,
  },
  {
    kind: 'embedder',
    id: 'multilingual-e5-small',
    name: 'multilingual-e5-small (int8)',
    summary: {
      en: 'For notes in many languages (about 100): larger and slower than BGE small zh.',
      zh: '适合多语言笔记（约 100 种语言）；比 BGE small zh 更大、更慢。',
    },
    source: { repo: 'Xenova/multilingual-e5-small', revision: '761b726dd34fb83930e26aab4e9ac3899aa1fa78' },
    upstream: 'intfloat/multilingual-e5-small',
    files: [
      {
        path: 'onnx/model_quantized.onnx',
        role: 'onnx',
        size: 118_308_185,
        sha256: 'f80102d3f2a1229f387d3c81909990d8945513e347b0eab049f7de3c6f98c193',
      },
      {
        path: 'tokenizer.json',
        role: 'tokenizer',
        size: 17_082_730,
        sha256: '0b44a9d7b51c3c62626640cda0e2c2f70fdacdc25bbbd68038369d14ebdf4c39',
      },
      {
        path: 'tokenizer_config.json',
        role: 'config',
        size: 443,
        sha256: 'a1d6bc8734a6f635dc158508bef000f8e2e5a759c7d92f984b2c86e5ff53425b',
      },
    ],
    licence: 'MIT',
    languages: ['multilingual (~100)'],
    quality: [
      { metric: 'C-MTEB retrieval', value: '59.95', source: 'FlagEmbedding research/C_MTEB/README.md' },
      { metric: 'C-MTEB average', value: '55.38', source: 'FlagEmbedding research/C_MTEB/README.md' },
    ],
    pinSource:
      'code index ids 69025648143, 67210321870, 65739117926, 52290556254 (revision, sizes, SHA-256s agree)',
    recommended: 'multilingual',
    dimensions: 384,
    maxTokens: 512,
    maxWindows: 3,
    pooling: 'mean',
    normalize: true,
    queryPrefix: 'query: ',
    documentPrefix: 'passage: ',
    output: 'last_hidden_state',
    // The e5 card's FAQ: scores "distribute around 0.7 to 1.0" (InfoNCE temperature 0.01).
    similarityFloor: 0.75,
    floorSource:
      'provisional: the e5 model card says cosine scores "distribute around 0.7 to 1.0"; calibrate on real weights (impossible on the build machine)',
    recipe: 'r1',
    cpuMsPerChunk: 125.6,
    separateQueryLane: true,
  },
  {
    kind: 'embedder',
    id: 'bge-m3',
    name: 'BGE-M3 (int8)',
    summary: {
      en: 'Best quality, 100+ languages, whole chunks in one pass; slow on a laptop CPU (about 1 chunk/s per core).',
      zh: '质量最好，支持 100 多种语言，整块一次编码；在笔记本 CPU 上很慢（每核约每秒 1 块）。',
    },
    source: { repo: 'Xenova/bge-m3', revision: '4de13258303883538bd53b696b452bf8099f0858' },
    upstream: 'BAAI/bge-m3',
    files: [
      {
        path: 'onnx/model_quantized.onnx',
        role: 'onnx',
        size: 569_694_530,
        sha256: '0826f8c1ab9edf1801db86c61919d4d108e8bfc0b809ec823ad366882ff0b77d',
      },
      {
        path: 'tokenizer.json',
        role: 'tokenizer',
        size: 17_082_821,
        sha256: '6710678b12670bc442b99edc952c4d996ae309a7020c1fa0096dd245c2faf790',
      },
      {
        path: 'tokenizer_config.json',
        role: 'config',
        size: 1_173,
        sha256: '7e4c1cc848840aeccdd763458c18dd525eb0f795c992e00ebe9c28554e7db2d4',
      },
    ],
    licence: 'MIT',
    languages: ['multilingual (100+)'],
    quality: [
      {
        metric: 'MMTEB retrieval',
        value: '54.60',
        source: 'QwenLM/Qwen3-Embedding README (leaderboard 2025-06-06)',
      },
      {
        metric: 'MIRACL',
        value: 'see the BGE-M3 paper (arXiv 2402.03216), not transcribed',
        source: 'FlagEmbedding research/BGE_M3',
      },
    ],
    pinSource:
      'code index ids 69025648143, 68855331099, 67323153147, 71438573435, 70639732487 (revision, sizes, SHA-256s agree)',
    recommended: 'best',
    dimensions: 1024,
    // 8,192 is the model's limit; a chunk (≤ ~1,600 characters) fits in 2,048 tokens, so one pass sees it whole.
    maxTokens: 2048,
    maxWindows: 1,
    pooling: 'cls',
    normalize: true,
    queryPrefix: '',
    documentPrefix: '',
    output: 'last_hidden_state',
    similarityFloor: 0.35,
    floorSource: BGE_FAQ_FLOOR,
    recipe: 'r1',
    cpuMsPerChunk: 1162,
    // 570 MB: one copy in memory; queries go first in its queue.
    separateQueryLane: false,
  },
  {
    kind: 'reranker',
    id: 'mmarco-mminilmv2-l12',
    name: 'mMiniLMv2 L12 mMARCO cross-encoder (int8)',
    summary: {
      en: 'Fastest multilingual reranker (14 languages incl. Chinese, trained on translated MS MARCO); Chinese quality not published.',
      zh: '最快的多语言重排序模型（含中文在内 14 种语言，基于翻译版 MS MARCO 训练）；未公布中文评测分数。',
    },
    source: {
      repo: 'cross-encoder/mmarco-mMiniLMv2-L12-H384-v1',
      revision: '1427fd652930e4ba29e8149678df786c240d8825',
    },
    upstream: 'cross-encoder/mmarco-mMiniLMv2-L12-H384-v1',
    files: [
      {
        path: 'onnx/model_quint8_avx2.onnx',
        role: 'onnx',
        arch: 'x64',
        size: 118_620_016,
        sha256: '6c2513767fb63d008a4377bef7a7a3555433d9436342bb53e35a3a72ffc52d4b',
      },
      {
        path: 'onnx/model_qint8_arm64.onnx',
        role: 'onnx',
        arch: 'arm64',
        size: null,
        sha256: '1825907d6c1a9001ff78124780bbde20a614a8c3df3b63409cf3c72c6fe5c8b4',
      },
      {
        path: 'tokenizer.json',
        role: 'tokenizer',
        size: 17_082_660,
        sha256: '62c24cdc13d4c9952d63718d6c9fa4c287974249e16b7ade6d5a85e7bbb75626',
      },
    ],
    licence: 'Apache-2.0',
    languages: ['multilingual (14, incl. zh)'],
    quality: [
      { metric: 'mMARCO (translated MS MARCO)', value: 'no C-MTEB figure published', source: 'model card' },
    ],
    pinSource:
      'code index ids 70530842006, 69388073207, 60557921074, 66777440069 (revision, sizes, SHA-256s agree)',
    recommended: 'fast',
    maxTokens: 256,
    maxQueryTokens: 64,
    output: 'logits',
    cpuMsPerPair: 52.7,
    autoEnable: true,
  },
  {
    kind: 'reranker',
    id: 'bge-reranker-base',
    name: 'BGE reranker base (int8)',
    summary: {
      en: 'Chinese/English cross-encoder, better than the small one; about 3x its cost per pair.',
      zh: '中英文交叉编码重排序模型，比小模型更准；每对的开销约为其 3 倍。',
    },
    source: { repo: 'Xenova/bge-reranker-base', revision: '280bcc27a84e0b898c251e06fddb25171bd9b101' },
    upstream: 'BAAI/bge-reranker-base',
    files: [
      {
        path: 'onnx/model_quantized.onnx',
        role: 'onnx',
        size: 279_301_077,
        sha256: 'dd98f3e67837d23210a6b7550c08cced4f61845b940ac45be3565840a10f3244',
      },
      {
        path: 'tokenizer.json',
        role: 'tokenizer',
        size: 17_098_079,
        sha256: '48564c5c7d3fa64d85d95e65414a542385f88b0f128fd8d4163fd7a57f2be05c',
      },
    ],
    licence: 'MIT',
    languages: ['zh', 'en'],
    quality: [
      {
        metric: 'C-MTEB reranking average',
        value: '65.42',
        source: 'FlagEmbedding research/C_MTEB/README.md',
      },
    ],
    pinSource:
      'code index ids 63556761597, 69837829940, 71477370315, 70637851312 (revision, sizes, SHA-256s agree)',
    maxTokens: 256,
    maxQueryTokens: 64,
    output: 'logits',
    cpuMsPerPair: 173,
    autoEnable: true,
  },
  {
    kind: 'reranker',
    id: 'bge-reranker-v2-m3',
    name: 'BGE reranker v2 m3 (int8, import only)',
    summary: {
      en: 'Best published reranker quality, but seconds per query on a laptop CPU; no pinned ONNX download exists, import your own export.',
      zh: '公开评测中质量最好，但在笔记本 CPU 上每次查询需数秒；没有可固定校验的 ONNX 下载，请导入自行导出的文件。',
    },
    source: null,
    upstream: 'BAAI/bge-reranker-v2-m3',
    files: [
      { path: 'onnx/model_quantized.onnx', role: 'onnx', size: null, sha256: null },
      { path: 'tokenizer.json', role: 'tokenizer', size: null, sha256: null },
    ],
    licence: 'Apache-2.0',
    languages: ['multilingual (100+)'],
    quality: [
      {
        metric: 'CMTEB-R, reranking Qwen3-Embedding-0.6B top-100',
        value: '72.16 (embedder alone 71.02)',
        source: 'QwenLM/Qwen3-Embedding README',
      },
    ],
    pinSource:
      'none: the official repository has no ONNX export and no community export was found with a citable revision and SHA-256',
    recommended: 'slow-best',
    maxTokens: 256,
    maxQueryTokens: 64,
    output: 'logits',
    cpuMsPerPair: 599,
    autoEnable: false,
  },
];
