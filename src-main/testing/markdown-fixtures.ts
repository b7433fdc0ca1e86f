// Deterministic text generators shared by the chunker's tests (seeded, so a failure replays exactly).
import { pick, seededRandom } from './seeded-random';

export { seededRandom };

const LATIN_WORDS = [
  'index',
  'search',
  'local',
  'vector',
  'chunk',
  'heading',
  'note',
  'folder',
  'sync',
  'answer',
  'cite',
  'offline',
];
const HAN =
  '的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造百规热领七海口东导器压志世金增争济阶油思术极交受联什认六共权收证改清己美再采转更单风切打白教速花带安场身车例真务具万每目至达走积示议声报斗完类八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林律叫且究观越织装影算低持音众书布复容儿须际商非验连断深难近矿千周委素技备半办青省列习响约支般史感劳便团往酸历市克何除消构府称太准精值号率族维划选标写存候毛亲快效斯院查江型眼王按格养易置派层片始却专状育厂京识适属圆包火住调满县局照参红细引听该铁价严';

export function latinSentence(random: () => number): string {
  const length = 3 + Math.floor(random() * 14);
  const words = Array.from({ length }, () => pick(random, LATIN_WORDS));
  words[0] = words[0]![0]!.toUpperCase() + words[0]!.slice(1);
  return `${words.join(' ')}${pick(random, ['.', '.', '!', '?'])}`;
}

export function hanSentence(random: () => number): string {
  const length = 6 + Math.floor(random() * 40);
  let text = '';
  for (let i = 0; i < length; i++) text += HAN[Math.floor(random() * HAN.length)];
  return text + pick(random, ['。', '。', '！', '？', '；']);
}

const ODD_PIECES = [
  '😀',
  '👨‍👩‍👧',
  '🇨🇳🇯🇵',
  'e\u0301',
  '👍🏽',
  '\u0000',
  '\t',
  '`',
  '|',
  '#',
  '**bold**',
  '\r\n',
  '\n',
  '  ',
  '。',
  '𠀋',
];

/** A random Markdown-ish document mixing every construct the chunker treats specially. */
export function randomMarkdown(random: () => number): string {
  const parts: string[] = [];
  const blockCount = Math.floor(random() * 25);
  for (let i = 0; i < blockCount; i++) {
    const roll = random();
    if (roll < 0.15) parts.push(`${'#'.repeat(1 + Math.floor(random() * 6))} ${latinSentence(random)}`);
    else if (roll < 0.2) parts.push(`${hanSentence(random)}\n${pick(random, ['===', '---'])}`);
    else if (roll < 0.3)
      parts.push(
        `\`\`\`\n${Array.from({ length: Math.floor(random() * 12) }, () => pick(random, ['# fake heading', '', latinSentence(random), '😀😀😀'])).join('\n')}${random() < 0.8 ? '\n```' : ''}`,
      );
    else if (roll < 0.38)
      parts.push(
        [
          '| a | b |',
          '|---|---|',
          ...Array.from(
            { length: Math.floor(random() * 15) },
            () => `| ${latinSentence(random)} | ${hanSentence(random)} |`,
          ),
        ].join('\n'),
      );
    else if (roll < 0.45)
      parts.push(
        Array.from({ length: 1 + Math.floor(random() * 6) }, () => `- ${latinSentence(random)}`).join('\n'),
      );
    else if (roll < 0.52)
      parts.push(Array.from({ length: Math.floor(random() * 80) }, () => pick(random, ODD_PIECES)).join(''));
    else if (roll < 0.6) parts.push(pick(random, ['😀', '汉', 'x', '👨‍👩‍👧']).repeat(Math.floor(random() * 600)));
    else {
      const sentence = random() < 0.5 ? latinSentence : hanSentence;
      parts.push(
        Array.from({ length: 1 + Math.floor(random() * 30) }, () => sentence(random)).join(
          random() < 0.5 ? ' ' : '',
        ),
      );
    }
  }
  return parts.join(pick(random, ['\n\n', '\n', '\n\n\n', '\r\n\r\n']));
}

/** Common words of Chinese technical writing, so ICU's dictionary segmenter meets real words. */
const CHINESE_WORDS = [
  ...'数据库 事务 索引 查询 集群 节点 配置 参数 副本 存储 引擎 日志 备份 恢复 升级 版本 用户 权限 连接 客户端 服务器 网络 延迟 吞吐 性能 优化 监控 告警 指标 内存 磁盘 空间 文件 目录 表格 字段 主键 分区 统计 信息 执行 计划 语句 函数 变量 默认 设置 修改 删除 创建 更新 读取 写入 同步 异步 复制 迁移 导入 导出 任务 调度 资源 隔离 负载 均衡 故障 切换 高可用 一致性 安全 加密 认证 审计 文档 说明 示例 注意 如果 那么 因为 所以 但是 可以 需要 必须 建议 通过 使用 支持 提供 包括 以及 或者 其中 每个 所有 部分 当前 之后 之前 系统 会话 报销 流程 审批 发票 差旅 预算 合同 采购'.split(
    ' ',
  ),
];

/**
 * Chinese technical prose of about `bytes` UTF-8 bytes: headed sections of paragraphs built from
 * real words, with a table every few sections, like an exported manual (#25 item 5's 18 MB file).
 */
export function chineseManual(bytes: number, random: () => number): string {
  const sentence = () =>
    `${Array.from({ length: 6 + Math.floor(random() * 14) }, () => pick(random, CHINESE_WORDS)).join('')}${pick(random, ['。', '。', '，', '；', '？'])}`;
  const parts = ['# 产品手册\n\n'];
  let size = Buffer.byteLength(parts[0]!);
  for (let section = 1; size < bytes; section++) {
    const block = [`## 第${section}章 ${pick(random, CHINESE_WORDS)}${pick(random, CHINESE_WORDS)}\n`];
    for (let p = 0; p < 2 + Math.floor(random() * 6); p++)
      block.push(Array.from({ length: 3 + Math.floor(random() * 8) }, sentence).join(''));
    if (section % 4 === 0)
      block.push(
        [
          '| 参数 | 默认值 | 说明 |',
          '| --- | --- | --- |',
          ...Array.from(
            { length: 3 + Math.floor(random() * 10) },
            (_, row) => `| ${pick(random, CHINESE_WORDS)}_${row} | ${row * 16} | ${sentence()} |`,
          ),
        ].join('\n'),
      );
    const text = `${block.join('\n\n')}\n\n`;
    parts.push(text);
    size += Buffer.byteLength(text);
  }
  return parts.join('');
}
