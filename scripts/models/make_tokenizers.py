#!/usr/bin/env python3
"""
Hand-made tokenizer.json fixtures for checking JS tokenizers against the reference ones.

  /usr/bin/python3 scripts/make_tokenizers.py --out fixtures

Writes:
  wordpiece/tokenizer.json  BERT-Chinese style (bge-small-zh-v1.5): BertNormalizer (lowercase,
                            accents stripped, CJK chars spaced), BertPreTokenizer, WordPiece '##'.
  unigram/tokenizer.json    XLM-R style (multilingual-e5, bge-m3, bge-reranker): a SentencePiece
                            Unigram model trained here with sentencepiece (Debian python3-sentencepiece)
                            on a small zh/en corpus with the real nmt_nfkc normalisation rules, so
                            the Precompiled charsmap is the real one; converted the way
                            transformers' XLMRobertaConverter does (fairseq id offset, <s> $A </s>).
  unigram/sp.model          the SentencePiece model itself: the C++ original is the gold reference.
  bpe/tokenizer.json        Qwen2/Qwen3 style byte-level BPE: NFC, the Qwen2 split regex, ByteLevel,
                            merges learnt here on the same corpus; '<|endoftext|>' appended.
  cases.json                test strings and sentencepiece's own ids for the Unigram model.
"""
import argparse
import base64
import json
import os
import random

import regex
import sentencepiece as spm
from sentencepiece import sentencepiece_model_pb2 as spmodel

ZH = ['向量检索', '知识库', '混合检索', '语义搜索', '本地模型', '离线使用', '下载镜像', '飞书文档', '语雀', '钉钉',
      '会议纪要', '报销流程', '发票', '合同审批', '项目计划', '季度预算', '服务器', '数据库', '密码重置', '请假申请',
      '我们', '需要', '如何', '提交', '下周', '完成', '已经', '没有', '因为', '所以', '但是', '可以', '这个', '那个',
      '资料库', '資料庫', '電腦', '軟體', '中文', '英文', '混合', '文本', '切分', '嵌入', '重排序', '模型', '性能']
EN = ['the', 'retrieval', 'embedding', 'tokenizer', 'search', 'hybrid', 'local', 'model', 'offline', 'download',
      'mirror', 'meeting', 'notes', 'invoice', 'contract', 'approval', 'budget', 'server', 'database', 'password',
      'reset', 'we', 'need', 'to', 'submit', 'next', 'week', 'and', 'of', 'for', 'with', 'is', 'are', 'running',
      'tokenization', 'unbelievable', 'quickly', "don't", "it's", 'Cairn', 'ONNX', 'BERT', 'GPU', 'CPU', '2024', '1,500']
PUNCT_ZH = ['，', '。', '：', '；', '！', '？', '、']

CASES = [
    'Hello, world! 你好，世界。',
    '如何提交报销发票？How do I submit an invoice for reimbursement?',
    'Cairn 的混合检索（hybrid retrieval）在离线时也能用。',
    'ＦＵＬＬ－ＷＩＤＴＨ ＡＢＣ１２３，全角字符',
    'ｶﾀｶﾅ half-width katakana ① ② ﬁ ligature ㍿',
    'Café naïve résumé — accents «quotes» “curly” ‘single’',
    'e\u0301 combining accent, A\u030a ring',
    'tabs\tand\nnewlines  and   multiple    spaces',
    '\u3000ideographic\u3000space and\u00a0nbsp',
    'emoji 👍🏽 and ZWJ 👨‍👩‍👧 family',
    '资料库 vs 資料庫 vs 電腦軟體',
    'rare CJK 𠮷野家 𪚥 and Korean 한국어, Japanese 日本語のテキスト',
    'code: const x = a->b ?? c; // TODO(2024-12-01) https://example.com/a_b?c=1&d=2',
    "Don't stop: it's 1,500 tokens in 2024年12月1日, 3.14%",
    'UNBELIEVABLE Tokenization of RUNNING models quickly',
    '   leading and trailing spaces   ',
    '',
    '\u200bzero\u200bwidth\u200b and control\u0007char and \ufeffBOM',
    'Ελληνικά, Русский текст, العربية, हिन्दी',
    '向量检索' * 40,
]


def corpus(n=4000, seed=3):
    rnd = random.Random(seed)
    lines = []
    for _ in range(n):
        parts = []
        for _ in range(rnd.randint(4, 14)):
            r = rnd.random()
            if r < 0.5:
                parts.append(rnd.choice(ZH))
            elif r < 0.9:
                parts.append((' ' if parts else '') + rnd.choice(EN) + ' ')
            else:
                parts.append(rnd.choice(PUNCT_ZH))
        lines.append(''.join(parts).strip())
    return lines


def make_unigram(out, lines):
    d = os.path.join(out, 'unigram')
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, 'corpus.txt'), 'w', encoding='utf-8') as f:
        f.write('\n'.join(lines) + '\n')
    spm.SentencePieceTrainer.train(input=os.path.join(d, 'corpus.txt'), model_prefix=os.path.join(d, 'sp'), vocab_size=600,
                                   model_type='unigram', normalization_rule_name='nmt_nfkc', character_coverage=0.9995,
                                   add_dummy_prefix=True, remove_extra_whitespaces=True, minloglevel=2)
    os.remove(os.path.join(d, 'corpus.txt'))
    proto = spmodel.ModelProto()
    proto.ParseFromString(open(os.path.join(d, 'sp.model'), 'rb').read())
    charsmap = base64.b64encode(proto.normalizer_spec.precompiled_charsmap).decode()
    vocab = [['<s>', 0.0], ['<pad>', 0.0], ['</s>', 0.0], ['<unk>', 0.0]]
    vocab += [[p.piece, p.score] for p in proto.pieces[3:]]
    vocab += [['<mask>', 0.0]]
    specials = {'<s>': 0, '<pad>': 1, '</s>': 2, '<unk>': 3, '<mask>': len(vocab) - 1}
    added = [dict(id=i, content=t, single_word=False, lstrip=(t == '<mask>'), rstrip=False, normalized=False, special=True) for t, i in specials.items()]
    tok = {
        'version': '1.0', 'truncation': None, 'padding': None, 'added_tokens': added,
        # As in the published XLM-R / bge-m3 / multilingual-e5 tokenizer.json files.
        'normalizer': {'type': 'Sequence', 'normalizers': [
            {'type': 'Precompiled', 'precompiled_charsmap': charsmap},
            {'type': 'Replace', 'pattern': {'Regex': ' {2,}'}, 'content': ' '}]},
        'pre_tokenizer': {'type': 'Metaspace', 'replacement': '▁', 'prepend_scheme': 'always', 'split': True},
        'post_processor': {
            'type': 'TemplateProcessing',
            'single': [{'SpecialToken': {'id': '<s>', 'type_id': 0}}, {'Sequence': {'id': 'A', 'type_id': 0}}, {'SpecialToken': {'id': '</s>', 'type_id': 0}}],
            'pair': [{'SpecialToken': {'id': '<s>', 'type_id': 0}}, {'Sequence': {'id': 'A', 'type_id': 0}}, {'SpecialToken': {'id': '</s>', 'type_id': 0}},
                     {'SpecialToken': {'id': '</s>', 'type_id': 0}}, {'Sequence': {'id': 'B', 'type_id': 0}}, {'SpecialToken': {'id': '</s>', 'type_id': 0}}],
            'special_tokens': {t: {'id': t, 'ids': [specials[t]], 'tokens': [t]} for t in ('<s>', '</s>')}},
        'decoder': {'type': 'Metaspace', 'replacement': '▁', 'prepend_scheme': 'always', 'split': True},
        'model': {'type': 'Unigram', 'unk_id': 3, 'vocab': vocab, 'byte_fallback': False},
    }
    with open(os.path.join(d, 'tokenizer.json'), 'w', encoding='utf-8') as f:
        json.dump(tok, f, ensure_ascii=False)
    with open(os.path.join(d, 'tokenizer_config.json'), 'w') as f:
        json.dump(dict(tokenizer_class='XLMRobertaTokenizer', model_max_length=512, bos_token='<s>', eos_token='</s>', unk_token='<unk>',
                       sep_token='</s>', cls_token='<s>', pad_token='<pad>', mask_token='<mask>'), f, indent=2)
    sp = spm.SentencePieceProcessor(model_file=os.path.join(d, 'sp.model'))
    gold = []
    for text in CASES:
        ids = sp.encode(text)
        # fairseq offset: sentencepiece <unk>=0 -> 3; piece i -> i + 1; wrapped in <s> ... </s>.
        gold.append([0] + [3 if i == 0 else i + 1 for i in ids] + [2])
    return gold


def bytes_to_unicode():
    bs = list(range(ord('!'), ord('~') + 1)) + list(range(ord('¡'), ord('¬') + 1)) + list(range(ord('®'), ord('ÿ') + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return dict(zip(bs, map(chr, cs)))


QWEN2_SPLIT = r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"""


def make_bpe(out, lines, merges_wanted=700):
    d = os.path.join(out, 'bpe')
    os.makedirs(d, exist_ok=True)
    b2u = bytes_to_unicode()
    pat = regex.compile(QWEN2_SPLIT)
    counts = {}
    for line in lines:
        for piece in pat.findall(line):
            word = tuple(b2u[b] for b in piece.encode('utf-8'))
            counts[word] = counts.get(word, 0) + 1
    words = {w: c for w, c in counts.items()}
    merges = []
    for _ in range(merges_wanted):
        pairs = {}
        for w, c in words.items():
            for a, b in zip(w, w[1:]):
                pairs[(a, b)] = pairs.get((a, b), 0) + c
        if not pairs:
            break
        best = max(pairs.items(), key=lambda kv: (kv[1], kv[0]))[0]
        merges.append(best)
        merged = {}
        for w, c in words.items():
            out_w, i = [], 0
            while i < len(w):
                if i + 1 < len(w) and (w[i], w[i + 1]) == best:
                    out_w.append(w[i] + w[i + 1])
                    i += 2
                else:
                    out_w.append(w[i])
                    i += 1
            merged[tuple(out_w)] = merged.get(tuple(out_w), 0) + c
        words = merged
    vocab = {}
    for ch in sorted(b2u.values(), key=lambda c: ord(c)):
        vocab[ch] = len(vocab)
    for a, b in merges:
        if a + b not in vocab:
            vocab[a + b] = len(vocab)
    eot = len(vocab)
    tok = {
        'version': '1.0', 'truncation': None, 'padding': None,
        'added_tokens': [dict(id=eot, content='<|endoftext|>', single_word=False, lstrip=False, rstrip=False, normalized=False, special=True)],
        'normalizer': {'type': 'NFC'},
        'pre_tokenizer': {'type': 'Sequence', 'pretokenizers': [
            {'type': 'Split', 'pattern': {'Regex': QWEN2_SPLIT}, 'behavior': 'Isolated', 'invert': False},
            {'type': 'ByteLevel', 'add_prefix_space': False, 'trim_offsets': False, 'use_regex': False}]},
        # Qwen3-Embedding appends <|endoftext|> so last-token pooling reads it.
        'post_processor': {'type': 'TemplateProcessing',
                           'single': [{'Sequence': {'id': 'A', 'type_id': 0}}, {'SpecialToken': {'id': '<|endoftext|>', 'type_id': 0}}],
                           'pair': [{'Sequence': {'id': 'A', 'type_id': 0}}, {'Sequence': {'id': 'B', 'type_id': 1}}, {'SpecialToken': {'id': '<|endoftext|>', 'type_id': 1}}],
                           'special_tokens': {'<|endoftext|>': {'id': '<|endoftext|>', 'ids': [eot], 'tokens': ['<|endoftext|>']}}},
        'decoder': {'type': 'ByteLevel', 'add_prefix_space': False, 'trim_offsets': False, 'use_regex': False},
        'model': {'type': 'BPE', 'dropout': None, 'unk_token': None, 'continuing_subword_prefix': '', 'end_of_word_suffix': '',
                  'fuse_unk': False, 'byte_fallback': False, 'ignore_merges': False, 'vocab': vocab, 'merges': [[a, b] for a, b in merges]},
    }
    with open(os.path.join(d, 'tokenizer.json'), 'w', encoding='utf-8') as f:
        json.dump(tok, f, ensure_ascii=False)
    with open(os.path.join(d, 'tokenizer_config.json'), 'w') as f:
        json.dump(dict(tokenizer_class='Qwen2Tokenizer', model_max_length=32768, eos_token='<|endoftext|>', pad_token='<|endoftext|>',
                       add_prefix_space=False, errors='replace'), f, indent=2)


def make_wordpiece(out, lines):
    d = os.path.join(out, 'wordpiece')
    os.makedirs(d, exist_ok=True)
    vocab = ['[PAD]'] + [f'[unused{i}]' for i in range(1, 5)] + ['[UNK]', '[CLS]', '[SEP]', '[MASK]']
    seen = set(vocab)

    def add(t):
        if t not in seen:
            seen.add(t)
            vocab.append(t)
    for ch in '!"#$%&\'()*+,-./0123456789:;<=>?@[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~':
        add(ch)
        add('##' + ch)
    for w in ['the', 'and', 'to', 'of', 'for', 'with', 'is', 'are', 'we', 'need', 'submit', 'next', 'week', 'token', '##ization',
              '##izer', 'un', '##believ', '##able', 'run', '##ning', 'quick', '##ly', 'search', 'hybrid', 'local', 'model', 'retriev',
              '##al', 'embed', '##ding', 'cafe', 'naive', 'resume', 'how', 'do', 'invoice', 'reimburse', '##ment', 'hello', 'world',
              'cairn', 'onnx', 'bert', '20', '##24', '##00', 'https', 'example', 'com', 'const', 'todo']:
        add(w)
    zh_chars = sorted(set(''.join(ZH) + '你好世界的年月日提交如何在时也能用全角字符资料库電腦軟體日本語'))
    for ch in zh_chars:
        add(ch)
    for ch in '，。：；！？、（）《》“”‘’—…・':
        add(ch)
    ids = {t: i for i, t in enumerate(vocab)}
    tok = {
        'version': '1.0', 'truncation': None, 'padding': None,
        'added_tokens': [dict(id=ids[t], content=t, single_word=False, lstrip=False, rstrip=False, normalized=False, special=True)
                         for t in ('[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]')],
        'normalizer': {'type': 'BertNormalizer', 'clean_text': True, 'handle_chinese_chars': True, 'strip_accents': None, 'lowercase': True},
        'pre_tokenizer': {'type': 'BertPreTokenizer'},
        'post_processor': {'type': 'TemplateProcessing',
                           'single': [{'SpecialToken': {'id': '[CLS]', 'type_id': 0}}, {'Sequence': {'id': 'A', 'type_id': 0}}, {'SpecialToken': {'id': '[SEP]', 'type_id': 0}}],
                           'pair': [{'SpecialToken': {'id': '[CLS]', 'type_id': 0}}, {'Sequence': {'id': 'A', 'type_id': 0}}, {'SpecialToken': {'id': '[SEP]', 'type_id': 0}},
                                    {'Sequence': {'id': 'B', 'type_id': 1}}, {'SpecialToken': {'id': '[SEP]', 'type_id': 1}}],
                           'special_tokens': {t: {'id': t, 'ids': [ids[t]], 'tokens': [t]} for t in ('[CLS]', '[SEP]')}},
        'decoder': {'type': 'WordPiece', 'prefix': '##', 'cleanup': True},
        'model': {'type': 'WordPiece', 'unk_token': '[UNK]', 'continuing_subword_prefix': '##', 'max_input_chars_per_word': 100, 'vocab': ids},
    }
    with open(os.path.join(d, 'tokenizer.json'), 'w', encoding='utf-8') as f:
        json.dump(tok, f, ensure_ascii=False)
    with open(os.path.join(d, 'tokenizer_config.json'), 'w') as f:
        json.dump(dict(tokenizer_class='BertTokenizer', do_lower_case=True, tokenize_chinese_chars=True, strip_accents=None, model_max_length=512,
                       cls_token='[CLS]', sep_token='[SEP]', pad_token='[PAD]', unk_token='[UNK]', mask_token='[MASK]'), f, indent=2)


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--out', default='fixtures')
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    lines = corpus()
    make_wordpiece(args.out, lines)
    gold = make_unigram(args.out, lines)
    make_bpe(args.out, lines)
    with open(os.path.join(args.out, 'cases.json'), 'w', encoding='utf-8') as f:
        json.dump(dict(cases=CASES, sentencepiece_unigram_ids=gold), f, ensure_ascii=False, indent=1)
    for name in ('wordpiece', 'unigram', 'bpe'):
        path = os.path.join(args.out, name, 'tokenizer.json')
        print(name, os.path.getsize(path), 'bytes')


if __name__ == '__main__':
    main()
