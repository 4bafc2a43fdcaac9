"""The fixed list of single-point mutants run by ``scripts/mutation.py`` (docs/mutation.md).

Each entry: the file, the function or method (``Class.name``) inside which the
snippet must occur exactly once (``None``: once in the whole file), the exact
original snippet, its replacement, the operator that made it and the fast test
files that should kill it (the most specific first: ``-x`` stops at the first
failure).  Ids are given in list order (M001, M002, ...); append new mutants at
the end so that existing ids keep their meaning.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Mutant:
    id: str
    file: str
    function: str | None
    original: str
    replacement: str
    operator: str
    tests: tuple[str, ...]


# operators
COMPARISON = "comparison flipped"
OFF_BY_ONE = "off-by-one"
DROP = "condition dropped"
SWAP = "arguments swapped"
EARLY = "early return"
SIDE = "wrong side (gold/test)"
OPERATOR = "operator replaced"
CONSTANT = "constant changed"
DELETE = "statement deleted"

# test files per area (most specific first)
EVALB = ("tests/test_boundaries_evalb.py", "tests/test_parseval.py", "tests/test_freval.py")
EVALB_READER = ("tests/test_reader_fast_paths.py",)
FREVAL = ("tests/test_boundaries_evalb.py", "tests/test_freval.py", "tests/test_fragments.py")
FRAGMENTS = ("tests/test_fragments.py", "tests/test_freval.py")
TEDEVAL = (
    "tests/test_boundaries_tedeval.py",
    "tests/test_tedeval_golden.py",
    "tests/test_tedeval_properties.py",
    "tests/test_cli_tedeval.py",
)
CATEGORY = ("tests/test_category_labels.py", *TEDEVAL)
ATTACH = ("tests/test_boundaries_core.py", "tests/test_attachment.py", "tests/test_cli_attach.py")
BASE = ("tests/test_boundaries_evalb.py", "tests/test_attachment.py", "tests/test_parseval.py")
GENERAL_TED = ("tests/test_general_ted.py", "tests/test_lattice.py", "tests/test_boundaries_lattice.py")
LATTICE = (
    "tests/test_boundaries_lattice.py",
    "tests/test_lattice.py",
    "tests/test_lattice_raw.py",
    "tests/test_lattice_draw.py",
)
SIGNIFICANCE = ("tests/test_boundaries_core.py", "tests/test_significance.py")
RESAMPLING = ("tests/test_resampling.py", "tests/test_significance.py")
OUTPUTS = ("tests/test_outputs_signals.py",)
# token boundaries of files that do not state them, read as a stream
BOUNDARIES = ("tests/test_lattice_identity.py", *LATTICE)
# the linear algorithms, tested against their definitions
LINEAR_EVALB = ("tests/test_limits.py", *EVALB)
LINEAR_FRAGMENTS = ("tests/test_limits.py", *FRAGMENTS)
LINEAR_TED = ("tests/test_limits.py", *GENERAL_TED)
# behaviours pinned by tests/test_pins_*.py to the CoNLL 2018 scorer's output on small
# inputs, hand counts and the docs' definitions (each mutant survived the tests of its own module)
CONLL18_PINS = ("tests/test_pins_conll18.py", "tests/test_conll18.py")
ALIGNED = ("tests/test_alignment.py", "tests/test_aligned_breakdown.py")
BREAKDOWN_PINS = ("tests/test_pins_breakdown.py", "tests/test_breakdown.py")
REPORT_PINS = ("tests/test_pins_report.py", "tests/test_pins_significance.py")
APP_PINS = ("tests/test_pins_report.py",)
SIGNIFICANCE_PINS = ("tests/test_pins_significance.py", "tests/test_significance.py")

P = "evalcore/metrics/parseval.py"
EV = "evalcore/formats/evalb.py"
RP = "evalcore/report/parseval.py"
F = "evalcore/metrics/freval.py"
FR = "evalcore/fragments.py"
B = "evalcore/metrics/base.py"
T = "evalcore/metrics/tedeval.py"
A = "evalcore/metrics/attachment.py"
C = "evalcore/conversion.py"
G = "evalcore/generalization.py"
S = "evalcore/ted/spans.py"
CS = "evalcore/construction_scores.py"
RT = "evalcore/metrics/rawtext.py"
ER = "evalcore/experiment_raw.py"
RAWTEXT = ("tests/test_rawtext.py", "tests/test_rawtext_experiment.py", "tests/test_cli_tedeval.py")
LABELS = "tests/test_tedeval_labels.py"
GT = "evalcore/ted/general.py"
LT = "evalcore/metrics/lattice_tedeval.py"
SG = "evalcore/metrics/segeval.py"
L = "evalcore/lattice/model.py"
LP = "evalcore/lattice/paths.py"
LI = "evalcore/lattice/reading.py"
J = "evalcore/metrics/joint.py"
TA = "evalcore/lattice/textalign.py"
WO = "evalcore/metrics/words.py"
SI = "evalcore/significance.py"
RS = "evalcore/resampling.py"
RSS = "evalcore/resampling_settings.py"
C18 = "evalcore/metrics/conll18.py"
CONLLU = "evalcore/formats/conllu.py"
COLS = "evalcore/formats/columns.py"
LINES = ("tests/test_conllu_lines.py", "tests/test_conll18.py", "tests/test_conllu.py")
RC18 = "evalcore/report/conll18.py"
BD = "evalcore/metrics/breakdown.py"
RR = "evalcore/report/resampling.py"
AV = "workbench/attachment_view.py"
EX = "evalcore/experiment.py"
RK = "evalcore/ranking.py"
BA = "evalcore/batch.py"
RAW_TEXT = ("tests/test_batch_raw_text.py",)
PT = "evalcore/formats/ptb.py"
IO = "evalcore/formats/_io.py"
PR = "evalcore/formats/prm.py"
DEPARTURES = ("tests/test_evalb_departures.py", "tests/test_reader_fast_paths.py")
NEDPL = ("tests/test_reference_tools.py",)
OUT = "evalcore/outputs.py"
INS = "evalcore/inspection.py"
PAIRING = ("tests/test_pairing_stops.py",)

# fmt: off
_RAW: list[tuple[str, str | None, str, str, str, tuple[str, ...]]] = [
    # ---- PARSEVAL (evalb) --------------------------------------------------------------
    (P, 'strip_functions', 'return label[:i]', 'return label[: i + 1]', OFF_BY_ONE, EVALB),
    (EV, '_read_tokens', 'if label not in delete_len:\n                length += 1',
     'length += 1', DROP, EVALB),
    (EV, '_read_tokens', 'if label not in delete:\n', 'if True:\n', DROP, EVALB),
    (P, '_deleted_labels', 'if a in base:\n            out.add(b)', 'pass', DELETE, EVALB),
    (P, '_deleted_labels', 'if b in base:\n            out.add(a)', 'pass', DELETE, EVALB),
    (P, 'massage', 'keep = b.start != b.end', 'keep = True', DROP, EVALB),
    (P, 'massage', 'and up.label == label', '', DROP, EVALB),
    (P, 'SentenceComparison.counts', 'complete=int(g == t == m)', 'complete=int(g == m)', DROP, EVALB),
    (P, 'SentenceComparison.counts', 'int(self.crossing <= 2)', 'int(self.crossing < 2)', COMPARISON, EVALB),
    (P, 'SentenceComparison.counts', 'int(self.crossing == 0)', 'int(self.crossing <= 1)', OFF_BY_ONE, EVALB),
    (P, 'ParsevalCounts.valid', 'self.sentences - self.errors - self.skipped',
     'self.sentences - self.errors', DROP, EVALB),
    (P, '_match', 'j = best.popleft()', 'j = best[0]', DROP, EVALB),
    (P, '_match', 'equal.get(g.label, (g.label,)) if labeled', '(g.label,) if labeled', DROP, EVALB),
    (P, '_crossing_spans', ' or max(max_end[s + 1 : e]) > e', '', DROP, EVALB),
    (P, '_crossing_spans', 'min(min_start[s + 1 : e]) < s', 'min(min_start[s + 1 : e]) <= s', COMPARISON,
     EVALB),
    (P, 'compare_readings', 'if not t.words:', 'if not g.words:', SIDE, EVALB),
    (P, 'compare_readings', 'g, t = fix_quote(g, t, params)', 'pass', DELETE, EVALB),
    (P, 'compare_readings', 'if a == b or params.label_eq(a, b)', 'if a == b', DROP, EVALB),
    (P, 'compare_lines', 'if errors > limit + 1:', 'if errors > limit:', OFF_BY_ONE, EVALB),
    (P, 'parseval_lines', 'if s.length <= config.params.cutoff_len:',
     'if s.length < config.params.cutoff_len:', COMPARISON, EVALB),
    (P, 'score', 'complete_match=ratio(counts.complete, valid)',
     'complete_match=ratio(counts.complete, counts.sentences)', OFF_BY_ONE, EVALB),
    (P, 'score', 'f1=ratio(2 * r * p, r + p)', 'f1=ratio(r * p, r + p)', CONSTANT, EVALB),
    (P, 'score', 'average_crossing=ratio(counts.crossing, valid)',
     'average_crossing=ratio(counts.crossing, counts.sentences)', OFF_BY_ONE, EVALB),
    (P, 'score', 'tagging_accuracy=ratio(counts.correct_tags, counts.words)',
     'tagging_accuracy=ratio(counts.correct_tags, counts.gold)', OFF_BY_ONE, EVALB),
    (RP, '_summary', '{2 * p * r / (p + r):6.2f}', '{p * r / (p + r):6.2f}', CONSTANT, EVALB),
    # ---- FREVAL ------------------------------------------------------------------------
    (F, 'FrevalCounts.__add__', 'max(self.largest_gold, other.largest_gold)',
     'self.largest_gold + other.largest_gold', OPERATOR, FREVAL),
    (F, '_strict_edges', ' and comp.test[pc].parent == pp', '', DROP, FREVAL),
    (F, 'sentence_counts', 'return FrevalCounts(gold, test, matched, 1, 0, 0, len(comp.gold))',
     'return FrevalCounts(gold, test, matched, 1, 0, 0, len(comp.test))', SIDE, FREVAL),
    (F, 'sentence_counts', 'fragment_counts([b.parent for b in comp.test], max_size=limit)',
     'fragment_counts([b.parent for b in comp.gold], max_size=limit)', SIDE, FREVAL),
    (F, 'sentence_counts', 'if all(include) and (', 'if (', DROP, FREVAL),
    (F, 'score', '[1.0 / limit] * sizes', '[1.0 / (limit + 1)] * sizes', OFF_BY_ONE, FREVAL),
    (F, 'score', 'r, p = ratio(m, g), ratio(m, t)', 'r, p = ratio(m, t), ratio(m, g)', SIDE, FREVAL),
    (F, 'score', 'for k in range(sizes):', 'for k in range(sizes - 1):', OFF_BY_ONE, FREVAL),
    (F, 'freval_comparisons', 'comp.length > config.cutoff_len',
     'comp.length >= config.cutoff_len', COMPARISON, FREVAL),
    (F, 'FrevalResult.rescore', '(max_size is None or max_size > made)', '(max_size > made)', DROP, FREVAL),
    (F, 'f1_by_size_frame', 'float(rec["f1"]) - base_f1[size - 1]',
     'base_f1[size - 1] - float(rec["f1"])', SWAP, FREVAL),
    # ---- fragment counting (FREVAL's dynamic programme) --------------------------------
    (FR, '_times_one_plus', 'n = limit', 'n = limit + 1', OFF_BY_ONE, FRAGMENTS),
    (FR, 'fragment_polynomials', ' or (edge_ok is not None and not edge_ok[i])', '', DROP, FRAGMENTS),
    (FR, 'add_counts', 'if len(a) < len(b):', 'if len(a) > len(b):', COMPARISON, FRAGMENTS),
    # ---- shared arithmetic -------------------------------------------------------------
    (B, 'ratio', 'return num / den if den else empty',
     'return num / den if den > 1 else empty', OFF_BY_ONE, BASE),
    # ---- attachment scores and NED -----------------------------------------------------
    (A, 'is_punct', ' or tag.startswith("yy")', '', DROP, ATTACH),
    (A, 'judge_tokens', 'head_ok and label_ok,', 'label_ok,', DROP, ATTACH),
    (A, 'judge_tokens', 'reason in ("parent", "child")', 'reason is not None', OPERATOR, ATTACH),
    (A, 'judge_tokens', 'elif g.head != 0 and ghead[g.head - 1] == s.head:',
     'elif g.head != 0 and ghead[g.head - 1] == s.head != 0:', DROP, ATTACH),
    (A, 'sentence_counts', '_kept_length(gold, config) > config.max_len',
     '_kept_length(gold, config) >= config.max_len', COMPARISON, ATTACH),
    (A, '_kept_length', 'if config.no_punct:', 'if False:', DROP, ATTACH),
    (A, 'sentence_counts', 'if not j.counted:\n            continue', 'pass', DELETE, ATTACH),
    (A, 'score', 'ratio(counts.uas, n),\n        ratio(counts.las, n),',
     'ratio(counts.las, n),\n        ratio(counts.uas, n),', SWAP, ATTACH),
    # ---- TedEval over span trees (2011/2012) -------------------------------------------
    (T, 'SentenceTed.score', 'if self.norm else 1.0', 'if self.norm else 0.0', EARLY, TEDEVAL),
    (T, 'sentence_ted', 'delta = script_cost(es_p) - script_cost(shared)',
     'delta = script_cost(es_p)', DROP, TEDEVAL),
    (T, 'sentence_ted', 'size(general, labeled=labeled)', 'size(own_gold, labeled=labeled)', SIDE, TEDEVAL),
    (T, 'sentence_ted', 'edit_script(own_gold, general, labeled=labeled)',
     'edit_script(general, own_gold, labeled=labeled)', SWAP, TEDEVAL),
    (T, 'score', 'if config.average == "sentence":', 'if config.average != "sentence":', COMPARISON, TEDEVAL),
    (T, 'TedCounts.__add__', 'TedCounts(**add_fields(self, other))', 'self', EARLY, TEDEVAL),
    # ---- conversions -------------------------------------------------------------------
    (C, 'dep_to_span_tree', 'if config.protocol == PROTOCOL_2011 or config.projectivize:',
     'if config.projectivize:', DROP, TEDEVAL),
    (C, '_label', 'return label.lower() if config.fold_case else label', 'return label', DROP, TEDEVAL),
    (C, 'ptb_to_span_tree', '{config.label_map.apply(f) for f in names}',
     'set(names)', DROP, TEDEVAL),
    (C, 'ptb_to_span_tree', 'if config.fold_case:', 'if False:', DROP, TEDEVAL),
    (C, 'LabelMap.__post_init__', 'table.setdefault(old, new)', 'table.setdefault(new, old)', SWAP, TEDEVAL),
    (C, '_is_lifted_arc', ' or max(between) > last', '', DROP, TEDEVAL),
    (C, '_shortest_non_projective', '(abs(h - d), min(h, d), d)',
     '(abs(h - d), -min(h, d), d)', COMPARISON, TEDEVAL),
    (C, '_dominance', 'leave[w] = clock - 1', 'leave[w] = clock', OFF_BY_ONE, TEDEVAL),
    (C, '_yields', 'acc = {w - 1} if w else set()', 'acc = set()', DROP, TEDEVAL),
    (C, 'dep_to_span_tree', 'HEAD_2011 if config.protocol == PROTOCOL_2011 else HEAD_2012',
     'HEAD_2012 if config.protocol == PROTOCOL_2011 else HEAD_2011', SWAP, TEDEVAL),
    (C, 'dep_to_span_tree', 'root_labels = mapping.pop(full, frozenset())',
     'root_labels = mapping.get(full, frozenset())', DROP, TEDEVAL),
    (C, 'projectivize', 'heads[d] = heads[heads[d]]', 'heads[d] = 0', CONSTANT, TEDEVAL),
    # ---- generalization, unification ---------------------------------------------------
    (G, 'labels_equal', ' or b in WILDCARDS', '', DROP, TEDEVAL),
    (G, '_gen_label', 'if a == WILDCARD:\n        return b',
     'if a == WILDCARD:\n        return a', SIDE, TEDEVAL),
    (G, 'generalize', 'a.root_labels & b.root_labels', 'a.root_labels | b.root_labels', OPERATOR, TEDEVAL),
    (G, 'generalize', 'out[span] = labels & other', 'out[span] = labels | other', OPERATOR, TEDEVAL),
    (G, 'generalize', 'if other is None:\n            continue',
     'if other is None:\n            other = labels', DROP, TEDEVAL),
    (G, 'crossing', ' or b <= a', '', DROP, TEDEVAL),
    (G, 'unify', 'out[span] = mine | labels', 'out[span] = mine & labels', OPERATOR, TEDEVAL),
    (G, 'unify', 'a.root_labels | b.root_labels', 'a.root_labels & b.root_labels', OPERATOR, TEDEVAL),
    (G, 'unify', 'lb if la == WILDCARD else la', 'la', DROP, TEDEVAL),
    (G, 'tl_unify', 'labels | bb.get(span, frozenset())', 'labels', DROP, TEDEVAL),
    (G, 'subsumes', 'elif not labels <= other:', 'elif not labels >= other:', COMPARISON, TEDEVAL),
    # ---- edit scripts by span arithmetic -----------------------------------------------
    (S, 'edit_script', ' and b not in WILDCARDS:', ':', DROP, TEDEVAL),
    (S, 'edit_script', 'for label in sorted(labels - tgt.get(span, frozenset())):',
     'for label in sorted(labels):', DROP, TEDEVAL),
    (S, 'size', 'if tree.protocol == PROTOCOL_2012 and labeled:', 'if tree.protocol == PROTOCOL_2012:',
     DROP, TEDEVAL),
    (S, 'intersect', 'if budget[op] > 0:', 'if budget[op] >= 0:', COMPARISON, TEDEVAL),
    # ---- general ordered TED -----------------------------------------------------------
    (GT, 'ted_mapping', 'return 0.0 if ax[a] == ay[b] else eps', 'return 0.0', DROP, GENERAL_TED),
    (GT, '_key_ids', 'if pin_roots and kx and ky:', 'if kx and ky:', DROP, GENERAL_TED),
    (GT, 'ted_distance', 'return 0.0 if kx[a] == ky[b] else big', 'return 0.0 if kx[a] == ky[b] else 1.0',
     CONSTANT, GENERAL_TED),
    (GT, 'ted_mapping', 'TedMapping(len(deleted) + len(inserted),', 'TedMapping(len(deleted),', DROP,
     GENERAL_TED),
    # ---- TedEval over lattices ---------------------------------------------------------
    (LT, 'SentenceLatticeTed.norm', 'self.parse_size + self.gold_size - 2',
     'self.parse_size + self.gold_size - 1', OFF_BY_ONE, LATTICE),
    (LT, 'SentenceLatticeTed.score', 'if self.norm > 0 else 1.0',
     'if self.norm > 0 else 0.0', EARLY, LATTICE),
    (LT, 'node_keys', 'label if labeled else ""', 'label', DROP, LATTICE),
    (LT, 'sentence_ted', 'use_tokens = _has_tokens(parse) and _has_tokens(gold)',
     'use_tokens = _has_tokens(parse)', DROP, LATTICE),
    (LT, '_general', 'ted_mapping(x, y, pin_roots=True)',
     'ted_mapping(x, y, pin_roots=False)', CONSTANT, LATTICE),
    (LT, 'score', 'if config.average == "sentence":',
     'if config.average != "sentence":', COMPARISON, LATTICE),
    (LT, 'LatticeTedCounts.__add__', 'LatticeTedCounts(**add_fields(self, other))', 'self', EARLY, LATTICE),
    # ---- SEGEVAL -----------------------------------------------------------------------
    (SG, 'lcs_length', 'prev[j - 1] + 1 if x == y', 'prev[j] + 1 if x == y', OFF_BY_ONE, LATTICE),
    (SG, 'sentence_counts', 'du += size - 2 * lcs_length(gu, pu)',
     'du += size - lcs_length(gu, pu)', CONSTANT, LATTICE),
    (SG, 'sentence_counts', 'dl += size - 2 * lcs_length(gl, pl)',
     'dl += size - 2 * lcs_length(gu, pu)', DROP, LATTICE),
    (SG, 'sentence_counts', 'if block.gold_tokens == 1 and block.pred_tokens == 1:',
     'if block.gold_tokens == 1:', DROP, LATTICE),
    (SG, 'sentence_counts', 'tokens += block.gold_tokens', 'tokens += 1', CONSTANT, LATTICE),
    (SG, 'score', '1.0 - ratio(counts.d_labeled, counts.norm)',
     '1.0 - ratio(counts.d_labeled, counts.gold_segments)', OFF_BY_ONE, LATTICE),
    # ---- lattices, paths, trees over lexemes -------------------------------------------
    (LP, 'first_path', 'key=lambda t: t.entry', 'key=lambda t: -t.entry', OPERATOR, LATTICE),
    ("evalcore/trees.py", 'Lattice.paths', 'for a in reversed(out_arcs.get(state, [])):',
     'for a in out_arcs.get(state, []):', SWAP, LATTICE),
    (LP, 'token_lattices', 'min(a.start for a in arcs)', 'max(a.start for a in arcs)', OPERATOR, LATTICE),
    (LP, '_walk', 'if labeled and (a.cpos', 'if (a.cpos', DROP, LATTICE),
    (LP, 'check_path', 'states[i] = (trail[k], trail[k + 1])',
     'states[i] = (trail[k], trail[k])', OFF_BY_ONE, LATTICE),
    (L, 'token_blocks', 'keys.setdefault(lx.token, [0, 0])[1] = 1',
     'keys.setdefault(lx.token, [0, 0])[0] = 1', SIDE, LATTICE),
    (L, 'LatticeTree.state_spans', 'max(e for _, e in spans)', 'min(e for _, e in spans)', OPERATOR, LATTICE),
    (L, 'tree_from_constituency', 'and nodes[root].label == ""\n', '\n', DROP, LATTICE),
    # ---- reading lattice inputs --------------------------------------------------------
    (LI, '_retoken', 'mapping[lx.token - 1] if lx.token else None',
     'mapping[lx.token] if lx.token else None', OFF_BY_ONE, LATTICE),
    (LI, '_ud_token_ids', 'enumerate(surface_tokens(dep), start=1)',
     'enumerate(surface_tokens(dep), start=0)', OFF_BY_ONE, LATTICE),
    (LI, '_segmentation_paths', 'lexemes.append(Lexeme(seg, "", tok, k, k + 1))',
     'lexemes.append(Lexeme(seg, "", k + 1, k, k + 1))', SWAP, LATTICE),
    (LI, '_dep_analysis', 'tag = tok.upos if options.tag_column == "cpos" else tok.xpos',
     'tag = tok.xpos if options.tag_column == "cpos" else tok.upos', SWAP, LATTICE),
    # ---- joint evaluation (scenario table) ---------------------------------------------
    (J, '_same_segmentation', ' or b.pred_tokens > 1', '', DROP, LATTICE),
    (J, '_Tally.add', 'self.same_segmentation = self.same_segmentation and same',
     'self.same_segmentation = self.same_segmentation or same', OPERATOR, LATTICE),
    (J, '_scenario', 'return "gold" if same_tags else "predicted"',
     'return "predicted" if same_tags else "gold"', SWAP, LATTICE),
    (J, '_Tally.result', 'if detected != "raw" and self.any_att:', 'if self.any_att:', DROP, LATTICE),
    (J, '_Tally.add', 'not c.pred_inside,', 'not c.gold_inside,', SIDE, LATTICE),
    (J, '_Tally.add', 'elif s.invalid:\n            self.skipped += 1',
     'else:\n            self.skipped += 1', DROP, LATTICE),
    # ---- raw text: character alignment, CoNLL 2018 "Words" -----------------------------
    (TA, 'stream_alignment', 'if (g.start, g.end) == (p.start, p.end):', 'if g.end == p.end:', DROP, LATTICE),
    (C18, '_beyond_end', 'return w.end > end', 'return w.end >= end', COMPARISON, LATTICE),
    (TA, 'align_tokens', 'Block(key, gi - g0, pi - p0)', 'Block(key, pi - p0, gi - g0)', SIDE, LATTICE),
    (WO, 'WordsCounts.f1', 'ratio(2 * self.correct, self.gold + self.system)',
     'ratio(self.correct, self.gold + self.system)', CONSTANT, LATTICE),
    (WO, 'words_counts', 'elif g.start == s.start and g.end == s.end:', 'elif g.start == s.start:', DROP,
     LATTICE),
    (C18, 'lcs_pairs', 'elif lcs[a][b] == lcs[a + 1][b]:', 'elif lcs[a][b] == lcs[a][b + 1]:', SWAP, LATTICE),
    # ---- significance ------------------------------------------------------------------
    # paired_bootstrap runs on _pairwise's bootstrap (one pair)
    (SI, '_pairwise', '(int(h) + 1) / (trials + 1), float(abs(o))', 'int(h) / trials, float(abs(o))',
     OFF_BY_ONE, SIGNIFICANCE),
    # approximate_randomization runs on randomization_tests (count vectors and a scorer)
    (SI, 'randomization_tests', '(int(h) + 1) / (shuffles + 1)',
     'int(h) / shuffles', OFF_BY_ONE, SIGNIFICANCE),
    (SI, 'randomization_tests', 'diff >= observed - eps',
     'diff > observed + eps', COMPARISON, SIGNIFICANCE),
    (SI, 'randomization_tests', 'rng.random((k, m)) < 0.5',
     'rng.random((k, m)) < 0.25', CONSTANT, SIGNIFICANCE),
    (SI, '_pairwise', '>= 2 * np.abs(observed[lo : lo + block])',
     '>= np.abs(observed[lo : lo + block])', CONSTANT, SIGNIFICANCE),
    (SI, 'SignificanceResult.significant', 'self.p_value < 0.05',
     'self.p_value <= 0.05', COMPARISON, SIGNIFICANCE),
    (SI, '_chunk', 'min(_CHUNK, trials_left, _CELLS // max(1, sentences))',
     'min(_CHUNK, _CELLS // max(1, sentences))', DROP, SIGNIFICANCE),
    (SI, 'significance', 'if method == "bootstrap":', 'if method != "bootstrap":', COMPARISON, SIGNIFICANCE),
    # ---- added after the first full run: the remaining functions that compute a number --
    (P, '_reinsert', 'for k in range(quote.bracket, len(brackets)):',
     'for k in range(quote.bracket + 1, len(brackets)):', OFF_BY_ONE, EVALB),
    (P, 'SentenceComparison.matched', 'if p >= 0', 'if p > 0', COMPARISON, EVALB),
    (RP, '_pct', 'if den > 0 else 0.0', 'if den > 1 else 0.0', OFF_BY_ONE, EVALB),
    (F, 'FrevalCounts.valid', 'self.sentences - self.errors - self.skipped', 'self.sentences - self.errors',
     DROP, FREVAL),
    (F, '_f1', 'ratio(2 * r * p, r + p)', 'ratio(r * p, r + p)', CONSTANT, FREVAL),
    (F, 'table1_frame', '.append(100 * sc.flr)', '.append(100 * sc.flp)', SIDE, FREVAL),
    (FR, '_add', 'total[k] += v', 'total[k] = v', OPERATOR, FRAGMENTS),
    (B, 'add_fields', 'getattr(a, f.name) + getattr(b, f.name)', 'getattr(a, f.name)', DROP, BASE),
    (A, '_base', 'deprel.split(":", 1)[0]', 'deprel.split(":", 1)[-1]', OFF_BY_ONE, ATTACH),
    (T, 'corpus_counts', 'labeled=labeled).counts()', 'labeled=True).counts()', CONSTANT, TEDEVAL),
    (G, 'generalize_all', 'return reduce(generalize, items)', 'return items[0]', EARLY, TEDEVAL),
    (J, '_sentence', 'sentence_ted(p.tree, g.tree, labeled=True,',
     'sentence_ted(p.tree, g.tree, labeled=False,', CONSTANT, LATTICE),
    (J, '_check', '        p.inside,\n', '        g.inside,\n', SIDE, LATTICE),
    (LI, '_tree_analysis', 't.deprel.split(":", 1)[0]', 't.deprel.split(":", 1)[-1]', OFF_BY_ONE, LATTICE),
    (TA, 'surface_tokens', 'tuple(range(i - 1, last))', 'tuple(range(i, last))', OFF_BY_ONE, LATTICE),
    # ---- recovered token boundaries, streamed; --
    # ---- the algorithms made linear ----------------------------------------------------
    (LI, '_Ahead.at', 'return self.current if self.index == index else None', 'return None', EARLY,
     BOUNDARIES),
    (LI, '_states_tokens', 'return True', 'return False', CONSTANT, BOUNDARIES),
    (LI, '_index_pair', 'if g.tokens_stated and not p.tokens_stated:', 'if g.tokens_stated:', DROP,
     BOUNDARIES),
    (LI, '_split_by_count', 'if segments == len(tokens):', 'if segments >= len(tokens):', COMPARISON,
     BOUNDARIES),
    (LP, 'token_splits', 'limit: int = 2', 'limit: int = 1', CONSTANT, BOUNDARIES),
    (P, '_crossing_spans', ' or _query(highs, lo, hi, max) > e', '', DROP, LINEAR_EVALB),
    (FR, '_run_sum', 'out = [max(k - u, 0) for u in range(length)]',
     'out = [max(k - u - 1, 0) for u in range(length)]', OFF_BY_ONE, LINEAR_FRAGMENTS),
    (GT, 'ted_same_yield', 'if cost > _count_bound(kx, ky, pin_roots):', 'if False:', DROP, LINEAR_TED),
    (FR, 'fragment_counts', ' and (edge_ok is None or edge_ok[i])', '', DROP, LINEAR_FRAGMENTS),
    # ---- intervals and paired tests on per-sentence count vectors ---------------
    (SI, 'bootstrap_intervals', 'scorer(rows.sum(axis=0)[None, :])[0]', 'scorer(rows[:1])[0]', DROP,
     RESAMPLING),
    (RS, '_freval_scorer', 'limit - np.argmax(present[:, ::-1], axis=1)',
     'limit - np.argmax(present, axis=1)', SWAP, RESAMPLING),
    (RS, '_freval_scorer', 'weights[0, :n] = alpha[:n]', 'weights[0, :n] = 1.0 / limit', CONSTANT,
     RESAMPLING),
    (RS, '_ted_scorer', '1.0 - _ratio(sums[:, 0:1], sums[:, 1:2])', '_ratio(sums[:, 0:1], sums[:, 1:2])',
     DROP, RESAMPLING),
    # ---- evalb's reading step without trees (evalcore parseval) ------------------
    (EV, '_counter', 'length -= sum(map(for_length, kept))', 'pass', DELETE, EVALB_READER),
    (EV, '_kept_preterminal', 'ahead = f"(?!(?:{skip}){_BLANK})" if skip else ""', 'ahead = ""', DROP,
     EVALB_READER),
    (EV, '_counter', 'keys.append((start, pos, label))', 'keys.append((start, pos + 1, label))', OFF_BY_ONE,
     EVALB_READER),
    (EV, '_Gaps.__missing__', 'counted += label not in self.sets.delete_len', 'counted += 1', DROP,
     EVALB_READER),
    # ---- the count-only path of evalcore parseval (the reader's counting mode, parseval_rows)
    (EV, '_counter', 'if label is not None:', 'if True:', DROP, EVALB_READER),
    (EV, '_counter', 'if text.count("(") >= bound:', 'if False:', DROP, EVALB_READER),
    (P, '_pair_counter', 'matched = nt - sum(v for v in free.values() if v > 0)',
     'matched = nt - sum(free.values())', DROP, EVALB_READER),
    (P, '_pair_counter', 'cross = _crossing_few(gk, others, words + 1) if others else 0', 'cross = 0', DELETE,
     EVALB_READER),
    (P, '_summed', 'if r.length <= cutoff]', 'if r.length < cutoff]', OFF_BY_ONE, EVALB_READER),
    (P, '_scorer', 'return classes.get(label, label) if labeled else ""',
     'return label if labeled else ""', DROP, EVALB_READER),
    (P, '_label_classes', 'if any(equal[x] != same for x in same):', 'if False:', DROP, EVALB_READER),
    (RP, 'evalb_row_line', 'if version == "1997" else row.words', 'if True else row.words', DROP,
     ("tests/test_parseval.py", "tests/test_reference_tools.py")),
    (EV, '_Gaps.__missing__', ' or (shut and label not in self.sets.delete)', '', DROP, EVALB_READER),
    # ---- category labels (--category-labels, our extension of the 2012 conversion (docs/tedeval.md,
    # "Category labels")) ----------------------
    (C, 'ptb_to_span_tree', 'if config.category_labels and not names and parts.category:',
     'if config.category_labels and parts.category:', DROP, CATEGORY),
    (C, 'ptb_to_span_tree', 'names = (parts.category,)', 'names = (raw,)', OPERATOR, CATEGORY),
    (T, 'TedConfig.signature_value', 'if c.category_labels:', 'if False:', DROP, CATEGORY),
    # ---- behaviours pinned to the CoNLL 2018 scorer on small inputs --------------
    (C18, '_Aligner._flush', 'if las:', 'if uas:', OPERATOR, CONLL18_PINS),
    (C18, '_Aligner._flush', 'if upos and feats and _children(g, s):', 'if upos and feats:', DROP,
     CONLL18_PINS),
    (C18, '_children', 'a is b.aligned and ', '', DROP, CONLL18_PINS),
    (C18, '_children', 'a.deprel == b.deprel and ', '', DROP, CONLL18_PINS),
    (C18, '_children', 'and a.feats == b.feats', '', DROP, CONLL18_PINS),
    (C18, '_link', 'elif w.functional:', 'else:', DROP, CONLL18_PINS),
    (C18, '_Aligner._flush', 'u[_UPOS + 3] += upos and xpos and feats', 'u[_UPOS + 3] += upos and xpos',
     DROP, CONLL18_PINS),
    (C18, '_Word.__init__', 'self.form = cols[1].lower()', 'self.form = cols[1]', DROP, CONLL18_PINS),
    (C18, 'multiword_span', 'if g is not None and (s is None or g.start <= s.start):',
     'if g is not None and (s is None or g.start < s.start):', COMPARISON, CONLL18_PINS),
    (C18, '_Aligner.run', 'elif g.start <= s.start:', 'elif g.start < s.start:', COMPARISON, CONLL18_PINS),
    (C18, 'lcs_pairs', 'elif lcs[a][b] == lcs[a + 1][b]:',
     'elif lcs[a][b] == lcs[a + 1][b] and lcs[a][b] != lcs[a][b + 1]:', COMPARISON, CONLL18_PINS),
    (C18, 'ratio_pairs', 'out.append((2 * c, g + s))', 'out.append((c, g + s))', CONSTANT, CONLL18_PINS),
    (RS, '_conll18_scorer', '_ratio(2 * sums[:, c], sums[:, g] + sums[:, s])',
     '_ratio(sums[:, c], sums[:, g] + sums[:, s])', CONSTANT, CONLL18_PINS),
    (RC18, 'format_conll18_counts', 'r.aligned or (r.correct if r.metric == "Words" else "")',
     'r.aligned or ""', DROP, CONLL18_PINS),
    # ---- breakdown bins at their edges (hand counts) ---------------------------
    (BD, '_bin_distance', '("3-6" if d <= 6 else "7+")', '("3-6" if d < 6 else "7+")', COMPARISON,
     BREAKDOWN_PINS),
    (BD, '_depth_key', '(str(d) if d <= 6 else "7+")', '(str(d) if d < 6 else "7+")', COMPARISON,
     BREAKDOWN_PINS),
    (BD, '_bin_length', '"51+" if n > 50', '"51+" if n >= 50', COMPARISON, BREAKDOWN_PINS),
    (BD, 'group_keys', '_bin_length(_kept_length(tree, config))', '_bin_length(len(toks))', DROP,
     BREAKDOWN_PINS),
    # ---- report columns (B - A, n.s.) and the app's intervals ----------------------
    (RR, 'paired_text', '100 * (cmp.b[i] - cmp.a[i]),', '100 * (cmp.a[i] - cmp.b[i]),', SWAP, REPORT_PINS),
    (RR, 'paired_text', '"" if t.significant else "n.s.",', '"" if t.p_value <= 0.05 else "n.s.",',
     COMPARISON, ("tests/test_pins_significance.py", "tests/test_pins_report.py")),
    (RR, 'paired_json', '"difference": cmp.b[i] - cmp.a[i],', '"difference": cmp.a[i] - cmp.b[i],', SWAP,
     REPORT_PINS),
    (RR, 'paired_csv', 'cmp.b[i] - cmp.a[i], cmp.tests[i].p_value]',
     'cmp.a[i] - cmp.b[i], cmp.tests[i].p_value]', SWAP, REPORT_PINS),
    (AV, '_view', 'for x in ("gold_uas", "gold_las")', 'for x in ("gold_uas", "gold_uas")', SIDE, APP_PINS),
    (AV, 'breakdown_frame', 's.las, r.las.low,', 's.las, r.uas.low,', SIDE, APP_PINS),
    (AV, 'breakdown_frame', 'r.las.low, r.las.high,', 'r.las.low, r.uas.high,', SIDE, APP_PINS),
    (AV, 'corpus_intervals', 'if not c.skipped and not c.excluded]', 'if not c.skipped]', DROP, APP_PINS),
    # ---- significance at p = 0.05, resampling of excluded rows, SEGEVAL, batch FREVAL
    (EX, 'build_rows', 'r.p_value < config.alpha', 'r.p_value <= config.alpha', COMPARISON,
     SIGNIFICANCE_PINS),
    (RK, 'tests_and_flips', 'r.p_value < config.alpha', 'r.p_value <= config.alpha', COMPARISON,
     SIGNIFICANCE_PINS),
    (RS, 'attach_table', 'if not c.skipped and not c.excluded', 'if not c.skipped', DROP, SIGNIFICANCE_PINS),
    (RS, 'lattice_table', '("ted", "ted", ted, ted,', '("ratio", "ratio", ted, ted,', OPERATOR,
     SIGNIFICANCE_PINS),
    (BA, 'run_pair_job', 'limit = max(freval_limit(a_fr, config), freval_limit(b_fr, config))',
     'limit = freval_limit(a_fr, config)', DROP, SIGNIFICANCE_PINS),
    ("evalcore/families/freval.py", 'run',
     'max(freval_limit(a.per_sentence, config), freval_limit(b.per_sentence, config))',
     'freval_limit(a.per_sentence, config)', DROP, SIGNIFICANCE_PINS),
]
# fmt: on

# ---- behaviours pinned to the reference tools' outputs and to hand counts -------
# (tests/test_pins_*.py; the inputs and the tools' outputs in tests/fixtures/reference/pins)
API = "evalcore/api.py"
AT = "evalcore/atlas.py"
LA = "evalcore/labelalign.py"
PRM = "evalcore/formats/prm.py"
EX = "evalcore/experiment.py"
PIN_FREVAL = ("tests/test_pins_freval.py", "tests/test_freval.py")
PIN_FREVAL_API = ("tests/test_pins_freval.py", "tests/test_api.py")
PIN_API = ("tests/test_pins_api_options.py", "tests/test_api.py")
FT = "evalcore/families/tedeval.py"
FL = "evalcore/families/lattice.py"
FACES = ("tests/test_registry.py", "tests/test_registry_ted.py")
PIN_EVALB = ("tests/test_pins_misc.py", "tests/test_parseval.py")
PIN_NED = ("tests/test_pins_misc.py", "tests/test_attachment.py")
PIN_ATLAS = ("tests/test_pins_misc.py", "tests/test_atlas.py")
PIN_LABELS = ("tests/test_pins_misc.py", "tests/test_labelalign.py")
PIN_TED = ("tests/test_pins_misc.py", "tests/test_tedeval_golden.py")
PIN_LATTICE = ("tests/test_pins_misc.py", "tests/test_lattice.py")
INSPECT_CONV = "protocol=protocol, function_sep=function_sep, fold_case=fold_case, projectivize=projectivize"
SHARE = "g.counted / c.delta if c.delta else 0.0"
MEAN = "ratio(counts.score_sum, counts.sentences, empty=1.0)"

# fmt: off
_RAW += [
    # FREVAL: --cutoff-len at exactly N words, alpha's L from the gold trees, rescoring
    (F, 'freval_comparisons', 'comp.length > config.cutoff_len', 'comp.words > config.cutoff_len', OPERATOR,
     PIN_FREVAL),
    (F, 'score', 'max(counts.largest_gold, len(alpha or ()))', 'max(len(counts.test), len(alpha or ()))',
     SIDE, PIN_FREVAL),
    (F, 'FrevalResult.rescore', 'return score(self.counts, max_size, alpha, config.signature())',
     'return score(self.counts, made, alpha, config.signature())', OPERATOR, PIN_FREVAL),
    (F, 'FrevalResult.rescore', 'max_size > made', 'max_size >= made', COMPARISON, PIN_FREVAL),
    ("evalcore/declare.py", 'from_keywords', 'if d.keyword is not None and d.keyword in values}',
     'if d.keyword is not None and d.keyword in values and d.kind != "int"}', DROP,
     ("tests/test_pins_freval.py", "tests/test_api.py")),
    # the API's keyword arguments
    ("evalcore/declare.py", 'from_keywords', 'if d.keyword is not None and d.keyword in values}',
     'if d.keyword is not None and d.keyword in values and d.kind != "flag"}', DROP,
     ("tests/test_pins_api_options.py", "tests/test_api.py")),
    ("evalcore/declare.py", 'from_keywords', 'if d.keyword is not None and d.keyword in values}',
     'if d.keyword is not None and d.keyword in values and d.kind != "choice"}', DROP,
     ("tests/test_pins_api_options.py", "tests/test_api.py")),
    ("evalcore/declare.py", 'from_keywords', 'if d.keyword is not None and d.keyword in values}',
     'if d.keyword is not None and d.keyword in values and d.kind != "str"}', DROP,
     ("tests/test_pins_api_options.py", "tests/test_api.py")),
    ("evalcore/declare.py", 'from_keywords', 'if d.keyword is not None and d.keyword in values}',
     'if d.keyword is not None and d.keyword in values and d.kind != "float"}', DROP,
     ("tests/test_pins_api_options.py", "tests/test_api.py")),
    (API, 'inspect', INSPECT_CONV, INSPECT_CONV.replace("projectivize=projectivize", "projectivize=False"),
     CONSTANT, PIN_API),
    (API, 'inspect', INSPECT_CONV, INSPECT_CONV.replace("fold_case=fold_case", "fold_case=False"), CONSTANT,
     PIN_API),
    # evalb: quote repair, EQ_LABEL both ways, crossing brackets past 256 positions
    (P, 'fix_quote', 'for k in range(j, len(gidx)):', 'for k in range(j + 1, len(gidx)):', OFF_BY_ONE,
     PIN_EVALB),
    (P, 'fix_quote', '_reinsert(gw, gt, gb, gpar, gq, ind)', '_reinsert(gw, gt, gb, gpar, gq, gq.index)',
     OPERATOR, PIN_EVALB),
    (EV, None, 'QUOTE_WORDS = frozenset({"\'", \'"\', "/"})', 'QUOTE_WORDS = frozenset({"\'", \'"\'})',
     CONSTANT, PIN_EVALB),
    (P, '_match', 'equal.setdefault(b, {b}).add(a)', 'equal.setdefault(b, {b})', DELETE, PIN_EVALB),
    (P, '_match', 'equal.setdefault(a, {a}).add(b)', 'equal.setdefault(a, {a})', DELETE, PIN_EVALB),
    (PRM, 'EvalbParams.label_eq', ' or (a == y and b == x)', '', DROP, PIN_EVALB),
    (P, '_crossing_spans', '_query(lows, lo, hi, min) < s', '_query(lows, lo, hi, min) <= s', COMPARISON,
     PIN_EVALB),
    (P, '_crossing_spans', 'lo, hi = s + 1, e - 1', 'lo, hi = s, e - 1', OFF_BY_ONE, PIN_EVALB),
    (P, '_query', 'k = (hi - lo + 1).bit_length() - 1', 'k = (hi - lo).bit_length() - 1', OFF_BY_ONE,
     PIN_EVALB),
    (P, '_query', 'table[k][hi - (1 << k) + 1]', 'table[k][hi - (1 << k)]', OFF_BY_ONE, PIN_EVALB),
    (P, '_sparse', 'pick(prev[i], prev[i + width])', 'pick(prev[i], prev[i + width - 1])', OFF_BY_ONE,
     PIN_EVALB),
    (P, '_crossing_spans', 'if lo > hi:', 'if lo >= hi:', COMPARISON, PIN_EVALB),
    # NED of a root word, and ROOT as a grandparent
    (A, 'judge_tokens', 'elif g.head != 0 and ghead[g.head - 1] == s.head:',
     'elif ghead[g.head - 1] == s.head:', DROP, PIN_NED),
    (A, 'judge_tokens', 'elif s.head != 0 and ghead[s.head - 1] == g.id:',
     'elif ghead[s.head - 1] == g.id:', DROP, PIN_NED),
    # the atlas: the lifted tree under the 2011 protocol, shares of the counted delta
    (AT, '_lifts', 'conversion.protocol == PROTOCOL_2011 or conversion.projectivize',
     'conversion.projectivize', DROP, PIN_ATLAS),
    (AT, 'score', SHARE, 'g.counted / c.norm if c.norm else 0.0', OPERATOR, PIN_ATLAS),
    (AT, 'score', SHARE, '(g.counted + g.discounted) / c.delta if c.delta else 0.0', OPERATOR, PIN_ATLAS),
    # label alignment: ties, coverage
    (LA, 'align', '(-kv[1], kv[0] != label, kv[0])', '(-kv[1], kv[0])', DROP, PIN_LABELS),
    (LA, 'align', '(-kv[1], kv[0] != label, kv[0])', '(-kv[1], kv[0] == label, kv[0])', COMPARISON,
     PIN_LABELS),
    (LA, 'align', 'covered += cands.get(p.target, 0)', 'covered += cands.get(p.best or label, 0)',
     OPERATOR, PIN_LABELS),
    (LA, 'align', 'ratio(covered, total, empty=1.0)', 'ratio(covered, total)', CONSTANT, PIN_LABELS),
    (LA, 'align', 'support / occ >= settings.min_share', 'support / occ > settings.min_share',
     COMPARISON, PIN_LABELS),
    # the sentence average of no sentence
    (T, 'score', MEAN, 'ratio(counts.score_sum, counts.sentences)', CONSTANT, PIN_TED),
    (LT, 'score', MEAN, 'ratio(counts.score_sum, counts.sentences)', CONSTANT, PIN_LATTICE),
    (EX, '_corpus_score', 'sum(x for x, _ in got) / len(got) if got else 1.0',
     'sum(x for x, _ in got) / len(got) if got else 0.0', CONSTANT, PIN_TED),
    # --tag-column fpos in the lattice path check
    (J, '_sentence', '_check(pair, lattice, config.tag_column)', '_check(pair, lattice, "cpos")', CONSTANT,
     PIN_LATTICE),
    (LP, '_walk', '(a.cpos if tag_column == "cpos" else a.fpos)', 'a.cpos', DROP, PIN_LATTICE),
    (LP, 'check_path', 'trail = _walk(tl, lexemes, tag_column, True)',
     'trail = _walk(tl, lexemes, "cpos", True)', CONSTANT, PIN_LATTICE),
    # ---- evalb on inputs users' files contain (tests/fixtures/reference/departures/) ---------------
    (EV, '_tree_tokens', 'if ~i not in keep_open:\n                    yield _CLOSE', 'yield _CLOSE', DELETE,
     DEPARTURES),
    (EV, 'read_evalb',
     'read_errors = (UNBALANCED,) if nodes[chain[-1]].children else (MORE_THAN_TWO, UNBALANCED)',
     'read_errors = (UNBALANCED,)', DROP, DEPARTURES),
    (EV, '_read_tokens', ' or (blank and word and not shut)', '', DROP, DEPARTURES),
    (EV, 'evalb_line_reader', 'if _EOL_OPEN.search(text) else (UNBALANCED,)', 'if False else (UNBALANCED,)',
     DROP, DEPARTURES),
    (EV, '_Gaps.__missing__', 'closes += 1', 'closes += 2', OFF_BY_ONE, DEPARTURES),
    (EV, '_Gaps.__missing__', 'if opens:', 'if False:', DROP, DEPARTURES),
    (EV, '_counter', 'if stack:\n            return None', 'if False:\n            return None', DROP,
     DEPARTURES),
    (PT, 'parse_ptb_line', 'if blank and not shut and word:', 'if False:', DROP, DEPARTURES),
    (PT, '_Builder.close', 'if not children and (open_blank or label_blank) and not (',
     'if False and not (', DROP, DEPARTURES),
    (PT, '_Builder.close', 'tag, word = (label, "") if label_blank or not label else ("", label)',
     'tag, word = (label, "")', DROP, DEPARTURES),
    (PT, 'detect_layout', 'return "tree"  # indented inside an open tree: pretty-printed', 'pass', DELETE,
     DEPARTURES),
    (PT, 'detect_layout', 'return "line" if after or whole or not first else "tree"', 'return "line"', DROP,
     DEPARTURES),
    (PT, 'detect_layout', 'if depth > 0 and low < 0:', 'if low < 0:', DROP, DEPARTURES),
    (P, '_deleted_labels', '(set(ROOT_LABELS) if delete_root else set())', 'set(ROOT_LABELS)', DROP,
     DEPARTURES),
    (P, 'compare_readings', '"error" if said else "ok",', '"ok",', DROP, DEPARTURES),
    (P, 'compare_lines', 'errors += comp.evalb_errors', 'errors += 1', CONSTANT, DEPARTURES),
    (P, 'parseval_rows', 'errors += comp.evalb_errors', 'errors += 1', CONSTANT, DEPARTURES),
    (P, 'compare_readings', 'said = g.read_errors + t.read_errors', 'said = t.read_errors', SIDE, DEPARTURES),
    (P, 'row_of', 'if not (s.scored or s.status == "ok"):', 'if s.status != "ok":', DROP, DEPARTURES),
    (PR, 'parse_prm', 'pair = _BLANK_RUN.split(value)', 'pair = value.split()', OPERATOR, DEPARTURES),
    (IO, 'iter_lines', '.replace(b"\\r", b"\\n")', '', DELETE,
     ("tests/test_limits.py", "tests/test_evalb_departures.py")),
    (A, 'is_nedpl_punct', 'token.xpos in NEDPL_PUNCT', 'token.xpos in PTB_PUNCT', OPERATOR, NEDPL),
    (A, 'AttachConfig.is_punct', 'return is_nedpl_punct if self.punct_tags == "nedpl" else is_punct',
     'return is_punct', DROP, NEDPL),
    (P, '_crossing', 'for g in gold if g.end >= 0', 'for g in gold', DROP, DEPARTURES),
    # ---- outputs, interrupts, messages (docs/robustness.md "Outputs, interrupts and messages") ------
    (OUT, 'check_output', '_refuse_inputs(path, st, inputs, option)', 'pass', DELETE, OUTPUTS),
    (OUT, '_refuse_inputs', '(target.st_dev, target.st_ino) == (other.st_dev, other.st_ino)',
     'target.st_size == other.st_size', OPERATOR, OUTPUTS),
    (OUT, 'open_output', 'os.unlink(temporary)', 'pass', DELETE, OUTPUTS),
    (OUT, 'open_output', 'os.fchmod(fh.fileno(), stat.S_IMODE(os.stat(out.real).st_mode))', 'pass', DELETE,
     OUTPUTS),
    ("evalcore/errors.py", None, '\\x7f-\\x9f', '\\x7f', CONSTANT, OUTPUTS),
    (RSS, 'check_seed', 'or seed < 0:', 'or seed < -1:', OFF_BY_ONE, OUTPUTS),
    ("evalcore/batch.py", 'run_batch_outcome', 'if bad and not keep_going:', 'if False:', DROP, OUTPUTS),
    ("evalcore/commands/batch.py", '_first_failure', 'FIRST_EXCEPTION', '"ALL_COMPLETED"', CONSTANT, OUTPUTS),
    # ---- what grows with the parses, a size limit, a map; streams that cannot pair --
    (SI, '_pairwise', 'block = max(1, _CELLS // max(1, m, _chunk(trials, m)))',
     'block = max(1, _CELLS // max(1, m))', DROP, SIGNIFICANCE),
    (SI, '_first_equal', 'rep.append(i if match is None else match)', 'rep.append(i)', DROP, SIGNIFICANCE),
    (SI, 'pairwise_significance', 'return [tested[w] for w in which]', 'return tested', DELETE, SIGNIFICANCE),
    (F, 'score', 'len(counts.test), len(counts.matched)))',
     'len(counts.test), len(counts.matched)) + 1)', OFF_BY_ONE, FREVAL),
    (F, 'FrevalScore.empty_sizes', 'first = len(self.per_size) + 1', 'first = len(self.per_size)', OFF_BY_ONE,
     FREVAL),
    (RS, '_freval_scorer', 'np.full((1, limit), 1.0 / config.max_size)', 'np.full((1, limit), 1.0 / limit)',
     CONSTANT, ("tests/test_freval.py", *RESAMPLING)),
    (TA, '_TextCheck.unmatched', 'while len(self.text[side]) < 20:', 'while len(self.text[side]) < 8:',
     CONSTANT, PAIRING),
    (C18, '_Aligner._compare', 'if (g.eof and s.text) or (s.eof and g.text):', 'if False:', DROP, PAIRING),
    (C18, '_Aligner.run', 'if self.read_all:', 'if True:', DROP, PAIRING),
    (EX, '_read_in_step', 'if ended[k] != ended[0]', 'if ended[k] == ended[0]', COMPARISON, PAIRING),
    (INS, '_check_words', 'if words == ref_words:', 'if True:', DROP, ("tests/test_api_bounds.py",)),
    (F, 'listed_sizes', 'limit - largest <= EMPTY_SIZES_LISTED', 'limit - largest < EMPTY_SIZES_LISTED',
     COMPARISON, FREVAL),
    ("evalcore/families/parseval.py", 'run', 'if settings.keep_sentences:', 'if False:', DROP,
     ("tests/test_pins_misc.py", "tests/test_registry.py")),
    ("evalcore/declare.py", 'from_mapping', 'if not _valid(d, value):', 'if False:', DROP,
     ("tests/test_registry.py",)),
    # ---- one copy of each rule: evalb's report rows as named counts ----------------------------
    (P, 'counts_of', 'ok = [r for r in rows if r.status == 0]', 'ok = list(rows)', DROP,
     ("tests/test_reader_fast_paths.py", "tests/test_evalb_departures.py")),
    (P, 'counts_of', 'if c <= 2)', 'if c < 2)', COMPARISON, EVALB_READER),
    (P, 'counts_of', 'complete=sum(1 for r in ok if r.gold == r.test == r.matched)',
     'complete=sum(1 for r in ok if r.gold == r.matched)', DROP, EVALB_READER),
    ("evalcore/families/parseval.py", 'run', 'if keep_rows and not settings.keep_sentences:', 'if False:',
     DROP, ("tests/test_pins_misc.py",)),
    ("evalcore/formats/evalb.py", '_counter', 'except (_Unread, IndexError):', 'except _Unread:', DROP,
     EVALB_READER),
    ("evalcore/formats/evalb.py", '_Gaps.__missing__', 'elif stray or ', 'elif ', DROP, EVALB_READER),
    # ---- the registry's attach and align-labels families ---------------------------------------
    ("evalcore/families/attach.py", 'run',
     'keep = settings.per_sentence or boot is not None or inputs.system_b is not None',
     'keep = settings.per_sentence or inputs.system_b is not None', DROP,
     ("tests/test_resampling.py", "tests/test_registry_dependency.py")),
    ("evalcore/families/attach.py", 'run', 'if not settings.per_sentence:', 'if False:', DROP,
     ("tests/test_registry_dependency.py",)),
    ("evalcore/families/attach.py", 'attach_config',
     'if settings.punct_tags != "ptb" and not settings.no_punct:', 'if False:', DROP,
     ("tests/test_registry_dependency.py",)),
    ("evalcore/families/attach.py", 'attach_config', 'skip_invalid=not settings.strict', 'skip_invalid=True',
     CONSTANT, ("tests/test_cli_attach.py",)),
    ("evalcore/report/attach.py", 'attach_json', 'intervals = intervals or result.intervals', 'pass', DELETE,
     ("tests/test_registry_dependency.py",)),
    ("evalcore/registry.py", 'writers_of', 'for cls in type(result).__mro__}', 'for cls in (type(result),)}',
     DROP, ("tests/test_registry_dependency.py",)),
    (BA, '_score_attach', 'per_sentence=len(job.gold.systems) > 1', 'per_sentence=False', CONSTANT,
     ("tests/test_batch.py", "tests/test_registry_dependency.py")),
    ("evalcore/families/align_labels.py", 'run', 'skip_mismatched=settings.skip_mismatched',
     'skip_mismatched=False', CONSTANT, ("tests/test_labelalign.py",)),
    ("evalcore/families/align_labels.py", 'run', 'direction=settings.direction,', 'direction="a-b",',
     CONSTANT, ("tests/test_labelalign.py", "tests/test_registry_dependency.py")),
    # ---- the FREVAL and atlas families (families/freval.py, families/atlas.py) -------------------
    ("evalcore/families/freval.py", 'run', 'keep = keep_counts or boot is not None or',
     'keep = keep_counts or', DROP, ("tests/test_registry.py", "tests/test_resampling.py")),
    ("evalcore/families/freval.py", 'freval_config', 'collapse_unary=settings.collapse_unary',
     'collapse_unary=False', CONSTANT, ("tests/test_registry.py",)),
    ("evalcore/families/freval.py", 'run', 'on_result(result)', 'pass', DELETE,
     ("tests/test_cli_snapshots.py",)),
    ("evalcore/batch.py", '_family_settings', ' | ELSEWHERE.get(family.name, frozenset())', '', DROP,
     ("tests/test_registry.py",)),
    ("evalcore/families/atlas.py", 'run', 'not settings.no_golds', 'True', CONSTANT,
     ("tests/test_registry.py",)),
    ("evalcore/families/atlas.py", 'run', 'if not settings.no_ranking and len(real) >= 2:',
     'if len(real) >= 2:', DROP, ("tests/test_registry.py",)),
    ("evalcore/families/atlas.py", 'ranking_config', 'if settings.freval_sizes < 1:',
     'if settings.freval_sizes < 0:', OFF_BY_ONE, ("tests/test_atlas_links.py",)),
    # ---- the tedeval and lattice families (declared once) ---------------------------------------
    (FT, 'conversion_config', 'settings.fold_case,', 'False,', CONSTANT, (*FACES, *PIN_API)),
    (FT, 'label_map_items', 'if sep and scheme in schemes:', 'if sep:', DROP,
     ("tests/test_scheme_label_maps.py", *FACES)),
    (FT, 'batch_values', 'if row.against == cell.scheme', 'if row.against != cell.scheme', COMPARISON,
     ("tests/test_batch.py", *FACES)),
    (FT, 'run', 'details=settings.per_sentence', 'details=False', CONSTANT,
     ("tests/test_cli_tedeval.py", *FACES)),
    (FT, 'api_labels_map', 'os.path.join(".", p) if', 'p if', DROP, FACES),
    (FL, 'run', 'rows.append(lattice_row(s, average))', 'rows.append(lattice_row(s, False))', CONSTANT,
     (*FACES, "tests/test_resampling.py")),
    (FL, 'run', 'None if settings.scenario == "auto" else settings.scenario', 'None', CONSTANT,
     (*FACES, *LATTICE)),
    ("evalcore/batch.py", '_family_settings', 'defaults | table', 'table', DROP,
     ("tests/test_batch.py", *FACES)),
    # ---- the workbench from the registry: a rescored FREVAL score's signature says its limit ----
    (F, 'FrevalResult.rescore', 'alpha, config.signature())', 'alpha, self.score.signature)', DROP,
     PIN_FREVAL),
    # ---- the API's settings from its declared keywords ---------------------------------------------
    ("evalcore/declare.py", 'from_keywords', 'return cls(**{**kw, **given})',
     'return cls(**{**given, **kw})', SWAP, ("tests/test_api.py", "tests/test_registry_ted.py")),
    # ---- evalb's counting mode: kept preterminals split, deleted ones read in the gaps ------------
    (EV, '_counter', 'bound = min(max_depth - 1, max_words + 1)', 'bound = max_depth - 1', DROP,
     EVALB_READER),
    (P, '_pair_counter', 'correct -= 1', 'pass', DELETE,
     EVALB_READER),
    (P, '_pair_counter', ' and (gtag, ttag) not in equal_tags', '', DROP,
     (*EVALB_READER, *EVALB)),
    # ---- the one CoNLL-U line parser and the two readings above it ------------------------------
    (COLS, 'id_kind', 'return "empty"', 'return "word"', CONSTANT, LINES),
    (COLS, 'parse_line', 'if comments and line[0] == "#":', 'if line[0] == "#":', DROP, LINES),
    (COLS, 'Columns.split', 'if len(cols) not in self.widths:', 'if len(cols) < min(self.widths):',
     COMPARISON, LINES),
    (COLS, 'natural', 'return int(digits) if len(digits) <= MAX_DIGITS else TOO_LARGE', 'return int(digits)',
     DROP, LINES),
    (COLS, 'comment_ids', 'if body.startswith("sent_id ") and not sent_id:',
     'if body.startswith("sent_id "):', DROP, LINES),
    (COLS, 'form_chars', 'unicodedata.category(c) != "Zs"', 'c != " "', OPERATOR, LINES),
    (C18, '_sentences', 'comments=start is None', 'comments=True', CONSTANT, LINES),
    (C18, '_sentences', 'sent_id = comment_ids(line, sent_id or "", "")[0] or None', 'pass', DELETE, LINES),
    ("evalcore/formats/conllu.py", '_finish', ' and raw_id[0] != "0"', '', DROP, LINES),
    ("evalcore/formats/lattice.py", '_int_field', 'if value == TOO_LARGE:', 'if False:', DROP, LINES),
    (COLS, 'parse_line', 'return "empty", cols', 'return "word", cols', CONSTANT, LINES),
    (COLS, 'parse_line', '("range" if "-" in raw_id else "word")', '"word"', DROP, LINES),
    # ---- the counting path's crossing loop and EQ_LABEL tags ------------------------------------
    (P, '_crossing_few', 'return _crossing_spans(gold, list(test))', 'return 0', DELETE,
     ("tests/test_parseval_long_crossing.py", *EVALB_READER)),
    (P, '_crossing_few', 'if (gs < s < ge < e) or (s < gs < e < ge):', 'if gs < s < ge < e:', DROP,
     (*EVALB_READER, *EVALB)),
    (P, '_crossing_few', '                break\n', '', DELETE, (*EVALB_READER, *EVALB)),
    (P, '_pair_counter', 'for a, b in ((x, y), (y, x)) if a != b', 'for a, b in ((x, y),) if a != b', DROP,
     ("tests/test_parseval_long_crossing.py", *EVALB_READER)),
    # ---- conll18: the remembered FEATS and DEPREL normal forms stay bounded -----------------------
    (C18, '_universal', 'if len(feats) <= 200 and len(memo) < _REMEMBERED:', 'if True:', DROP,
     CONLL18_PINS),
    (C18, '_relation', 'deprel = full.split(":")[0]', 'deprel = full', DROP, CONLL18_PINS),
    # ---- the CoNLL-U reader's HEAD without natural()'s call: natural's rule, digit for digit ------
    (CONLLU, '_finish', ' and head_raw.isascii()', '', DROP, LINES),
    (CONLLU, '_finish', 'and len(head_raw) <= MAX_DIGITS:\n', ':\n', DROP, LINES),
    # ---- the counting mode's gap loop: a gap that closes, opens or holds a counted word --------------
    (EV, '_counter', 'if closes:', 'if False:', DROP, EVALB_READER),
    (EV, '_counter', 'if opens:', 'if False:', DROP, EVALB_READER),
    (EV, '_counter', 'if extra:', 'if False:', DROP, EVALB_READER),
    # ---- evalb's report line from each number's text made once -------------------------------------
    (RP, 'evalb_row_line', '{pct[m, g]} {pct[m, t]}', '{pct[m, t]} {pct[m, g]}', SWAP, EVALB),
    (RP, 'evalb_row_line', '{d4[words]}  {d4[tags]}', '{d4[tags]}  {d4[tags]}', DROP, EVALB),
    (RP, 'evalb_row_line', '{d3[g]}  {d3[t]}', '{d3[t]}  {d3[g]}', SWAP, EVALB),
    # ---- kept preterminals as "TAG word", split where the two sides differ --------------------------
    (P, '_pair_counter', 'if gword != tword and not word_eq(gword, tword):', 'if False:', DROP, EVALB_READER),
    (EV, '_counter', 'short = tuple(tag + " " for tag in', 'short = tuple(tag for tag in', DROP,
     EVALB_READER),
    # the atlas pauses the cyclic collector and gives back the caller's setting
    ("evalcore/gcpause.py", 'paused_gc', 'if was:\n            gc.enable()', 'gc.enable()', DROP,
     ("tests/test_gcpause.py",)),
    # ---- the tree reader splits a sentence block in one call, its errors still in line order ------
    (COLS, 'split_lines', 'if {len(cols) for cols in fields if cols is not None}.issubset(widths):',
     'if True:', DROP, LINES),
    (CONLLU, '_finish', 'zip(lines, fields, strict=False)',
     'zip(lines, fields if len(fields) == len(lines) else [], strict=False)', EARLY, LINES),
    (CONLLU, '_finish', 'line.count("\\t") + 1', 'line.count("\\t")', OFF_BY_ONE, LINES),
    (CONLLU, '_finish', 'fname, lineno, sent_id or None)\n    first', 'fname, lineno, None)\n    first', DROP,
     LINES),
    # ---- batch: parses of raw text scored as CoNLL 2018, with intervals, every pair tested --------
    (BA, '_score_attach', 'return replace(_score_conll18(replace(job, metric="conll18")), aligned=True)',
     'raise', EARLY, RAW_TEXT),
    (BA, '_aligned_jobs', 'if "conll18" in gold.metrics or not any(out.aligned for _, out in mine):',
     'if True:', DROP, RAW_TEXT),
    (BA, '_aligned', 'elif "conll18" not in job.gold.metrics:', 'else:', DROP, RAW_TEXT),
    (BA, '_score_conll18', 'iv.low, iv.high', 'iv.high, iv.low', SWAP, RAW_TEXT),
    (BA, '_settings', 'level, paired.seed)', 'level)', DROP, RAW_TEXT),
    (BA, 'run_pair_job', 'elif job.metric == "conll18":', 'elif False:', DROP, RAW_TEXT),
    (BA, '_pair_jobs', 'oa.signature or oa.rows[0].signature', 'oa.rows[0].signature', DROP, RAW_TEXT),
    (BA, '_job_order', 'METRICS.index(job.metric), system', 'METRICS.index(job.metric), -system', OPERATOR,
     RAW_TEXT),
    ("evalcore/report/batch.py", 'ranked', 'best = r.value if r.score in LOWER_IS_BETTER else -r.value',
     'best = -r.value', DROP, RAW_TEXT),
    ("evalcore/report/batch.py", 'selected', 'if s not in found', 'if s in found', COMPARISON, RAW_TEXT),
    # ---- the tree reader computes a tree's depth only when the sentence is longer than the limit -----
    (CONLLU, '_finish', 'if n > limits.depth:', 'if n > limits.depth + 1:', OFF_BY_ONE,
     ("tests/test_limits.py", *LINES)),
    # ---- the app's parses of the raw text (workbench; hand-counted two-sentence example) ----------
    (AV, 'aligned_worst', 'c.words_gold + c.words_system, 1.0)', 'c.words_gold + c.words_gold, 1.0)', SIDE,
     ("tests/test_aligned_view.py",)),
    (AV, 'aligned_sentences_frame', 'ascending=[True, False]', 'ascending=[False, False]', COMPARISON,
     ("tests/test_aligned_view.py",)),
    (AV, 'scorer_frame', 'return "" if value is None else', 'return "None" if value is None else', CONSTANT,
     ("tests/test_aligned_view.py",)),
    ("workbench/datasets.py", 'assemble', 'if difference is not None:', 'if False:', DROP,
     ("tests/test_aligned_view.py",)),
    ("workbench/uploads.py", 'loaded_names', 'if loaded.has(f.name):', 'if True:', DROP,
     ("tests/test_aligned_view.py",)),
    # ---- the CoNLL 2018 alignment as a value, and every breakdown on aligned words ----------------
    (C18, '_Aligner._keep', 'w.id = k + 1', 'w.id = k', OFF_BY_ONE, ALIGNED),
    (C18, '_Aligner._keep_pair', 'child = isinstance(head, _Word) and head.parent is g',
     'child = False', DROP, ALIGNED),
    (C18, '_Aligner._keep_pair', 'grand = g.parent is not None and g.parent.parent is head',
     'grand = g.parent is not None', DROP, ALIGNED),
    (C18, '_Aligner.sentences', 'tuple(_aligned_word(w, gold_of.get(w.index)) for w in system)',
     'tuple(_aligned_word(w, system_of.get(w.index)) for w in system)', SIDE, ALIGNED),
    ("evalcore/metrics/aligned.py", 'word_keys', 'return [bins[u] for u in units]',
     'return [bins[w.sentence] for w in words]', SIDE, ALIGNED),
    ("evalcore/metrics/aligned.py", '_group_counts', '(system_keys, system_of, 5)', '(gold_keys, gold_of, 5)',
     SIDE, ALIGNED),
    ("evalcore/metrics/aligned.py", '_group_counts', 'p.uas + 2 * p.las + 4 * p.label',
     'p.uas + 2 * p.uas + 4 * p.label', OPERATOR, ALIGNED),
    ("evalcore/metrics/aligned.py", 'aligned_confusion', 'if cell[0] != cell[1]:', 'if True:', DROP, ALIGNED),
    ("evalcore/metrics/breakdown.py", '_rank', 'order.index(k) if k in order else len(order)', '0', CONSTANT,
     ALIGNED),
    ("evalcore/metrics/aligned.py", 'sentence_records', 'sum(p.ned for p in s.pairs)',
     'sum(p.uas for p in s.pairs)', OPERATOR, ALIGNED),
    ("evalcore/metrics/aligned.py", 'sentence_records', 'len(s.system)', 'len(s.gold)', SIDE, ALIGNED),
    ("evalcore/families/attach.py", '_aligned', 'if settings.per_sentence:\n            records',
     'if False:\n            records', DROP, ALIGNED),
    # ---- relation labels by the gold's format: auto = universal on CoNLL-U, full on CoNLL-X -------
    ("evalcore/choices.py", 'universal_labels', '(labels == LABELS_AUTO and dialect == "conllu")', 'False',
     DROP, ("tests/test_labels.py",)),
    ("evalcore/choices.py", 'universal_labels', 'dialect == "conllu"', 'dialect == "conllx"', COMPARISON,
     ("tests/test_labels.py",)),
    ("evalcore/choices.py", 'universal_labels', 'labels == LABELS_UNIVERSAL or ', '', DROP,
     ("tests/test_labels.py",)),
    ("evalcore/formats/detect.py", 'dialect_of', 'first.comments or first.extras', 'first.comments', DROP,
     ("tests/test_labels.py",)),
    ("evalcore/formats/detect.py", 'dialect_of', 'first.comments or first.extras', 'first.extras', DROP,
     ("tests/test_labels.py",)),
    ("evalcore/formats/detect.py", '_named_dialect', 'if suffixes and suffixes[-1].lower() == ".gz":',
     'if False:', DROP, ("tests/test_labels.py",)),
    ("evalcore/formats/detect.py", 'conll_dialect', '    if named is not None:\n        return named\n', '',
     DELETE, ("tests/test_labels.py",)),
    ("evalcore/families/attach.py", 'attach_config', 'universal_labels(settings.labels, dialect)',
     'universal_labels(settings.labels, "conllu")', CONSTANT, ("tests/test_labels.py",)),
    ("evalcore/families/lattice.py", 'joint_config', 'universal_labels(settings.labels, dialect)',
     'settings.labels != "full"', CONSTANT, ("tests/test_labels.py",)),
    ("evalcore/families/attach.py", '_aligned', 'base = universal_labels(settings.labels, conll_dialect(',
     'base = True or universal_labels(settings.labels, conll_dialect(', CONSTANT,
     ("tests/test_cli_attach_aligned.py",)),
    # ---- scores restricted to a construction (docs/patterns.md) -----------------------------
    (A, 'judge_tokens', '(covered is None or g.id in covered)', '(covered is None or g.id not in covered)',
     COMPARISON, ("tests/test_patterns_where.py",)),
    (A, 'judge_tokens', 'covered = config.where.covered(gold)', 'covered = config.where.covered(system)',
     SIDE, ("tests/test_patterns_where.py",)),
    ("evalcore/patterns/match.py", 'Where.covered', '_search(m, ix, (), budget) for s in m.slots)',
     '_search(m, ix, (), budget) for s in m.slots[:1])', OFF_BY_ONE, ("tests/test_patterns_where.py",)),
    ("evalcore/atlas.py", 'atlas_counts', '_index(t, lift, config.patterns_of(scheme))',
     '_index(t, lift, None)', DROP, ("tests/test_patterns_atlas.py",)),
    # ---- ... on a parse of raw text (docs/patterns.md, "On a parse of raw text") -------------
    ("evalcore/metrics/aligned.py", 'restrict', 'if p.gold in gold_in and p.system in system_in)',
     'if p.gold in gold_in)', DROP, ("tests/test_patterns_where_raw.py",)),
    ("evalcore/metrics/aligned.py", 'restrict', 'gold_in, system_in = _covered(gold_words, where), '
     '_covered(system_words, where)', 'gold_in, system_in = _covered(gold_words, where), '
     '_covered(gold_words, where)', SIDE, ("tests/test_patterns_where_raw.py",)),
    ("evalcore/metrics/aligned.py", '_restricted_counts', 'content_system=sum(map(_content, system))',
     'content_system=sum(map(_content, gold))', SIDE, ("tests/test_patterns_where_raw.py",)),
    # ---- constructions as units of evaluation (docs/patterns.md) -----------------------------
    (CS, '_rates', 'row[3] += ta.head == tb.head', 'row[3] += ta.deprel == tb.deprel',
     COMPARISON, ("tests/test_construction_scores.py",)),
    (CS, '_rates', 'for u in {na, nb}:', 'for u in {na}:', DROP,
     ("tests/test_construction_scores.py",)),
    (CS, 'sentence_units',
     'words = target_words if op_side(op) == "target" else parse_words', 'words = parse_words', SIDE,
     ("tests/test_construction_scores.py",)),
    (CS, 'sentence_units', 'row[1 if disc else 0] += 1', 'row[0] += 1', DROP,
     ("tests/test_construction_scores.py",)),
    (CS, 'sentence_units',
     'for st, words in ((parse_tree, parse_words), (target_tree, target_words)):',
     'for st, words in ((parse_tree, parse_words), (target_tree, parse_words)):', SIDE,
     ("tests/test_construction_scores.py",)),
    (CS, 'node_weight', 'len(labels) if protocol == PROTOCOL_2012 and labeled else 1', '1', CONSTANT,
     ("tests/test_construction_scores.py",)),
    (CS, '_attach_pairs', 'gw = trees.get(s.gold, s.name, pos, lift=False)',
     'gw = trees.get(files[pname], s.name, pos, lift=False)', SIDE, ("tests/test_construction_scores.py",)),
    (CS, '_ted_pairs', 't_scheme = d.against if d.against in golds else scheme',
     't_scheme = scheme', DROP, ("tests/test_construction_scores.py",)),
    (CS, '_value', 'return (1.0 - x / n if n else 1.0), x, n',
     'return (x / n if n else 1.0), x, n', CONSTANT, ("tests/test_construction_scores.py",)),
    # ---- the bound on a pattern search (docs/robustness.md, "Pattern searches") ---------------
    ("evalcore/patterns/match.py", '_extend', 'if not budget.left:', 'if budget.left < 0:', OFF_BY_ONE,
     ("tests/test_patterns_limits.py",)),
    ("evalcore/patterns/match.py", '_extend', 'budget.left -= 1', 'pass', DELETE,
     ("tests/test_patterns_limits.py",)),
    ("evalcore/patterns/match.py", '_rejected', 'next(_extend(w, ix, ext, 0, budget), 1)',
     'next(_extend(w, ix, ext, 0, _Budget(budget.limits)), 1)', SIDE, ("tests/test_patterns_limits.py",)),
    ("evalcore/patterns/match.py", 'Where.covered', '_Budget(limits or self.limits)',
     '_Budget(limits or DEFAULT_LIMITS)', DROP, ("tests/test_patterns_limits.py",)),
    ("evalcore/patterns/match.py", 'compile_file', 'CompiledFile(pf, tuple(entries), limits)',
     'CompiledFile(pf, tuple(entries))', DROP, ("tests/test_patterns_limits.py",)),
    ("evalcore/families/attach.py", 'read_where', 'return where(value, limits=limits)', 'return where(value)',
     DROP, ("tests/test_patterns_limits.py",)),
    # ---- the atlas's constructions from its default pattern file (docs/atlas.md) -------------
    (AT, 'default_constructions', 'if recent is not None and recent[0] is tree:', 'if recent is not None:',
     DROP, ("tests/test_patterns_shipped.py", "tests/test_atlas.py")),
    (AT, 'AtlasConfig.patterns_of', 'return default_patterns() if given is None else given',
     'return default_patterns()', DROP, ("tests/test_patterns_atlas.py",)),
    (AT, '_described', 'for name in pf.names[:-1]:', 'for name in pf.names:', OFF_BY_ONE,
     ("tests/test_patterns_shipped.py",)),
    ("evalcore/commands/atlas.py", '_export', 'config.given_patterns_of(side)', 'config.patterns_of(side)',
     DROP, ("tests/test_atlas_export_constructions.py",)),
    (CS, 'Coverage.of_tree', 'AtlasConfig(patterns=self.patterns).given_patterns_of(scheme)',
     'AtlasConfig(patterns=self.patterns).patterns_of(scheme)', DROP, ("tests/test_construction_scores.py",)),
    # ---- cross-scheme TedEval for parses of raw text (docs/rawtext.md) --------------------------
    (RT, 'block_ted', 'and _same_words(block, parse[0], own[0])', '', DROP, RAWTEXT),
    (RT, 'block_ted', 'if own_ops[j][key] > 0:', 'if own_ops[j][key] >= 0:', COMPARISON, RAWTEXT),
    (RT, 'block_ted', 'seg = not displaced_at[node.sentence].isdisjoint(node.span)', 'seg = False', CONSTANT,
     RAWTEXT),
    (RT, 'block_ted', 'norm = built.norm + ', 'norm = ', DROP, RAWTEXT),
    (RT, 'block_ted', 'delta = sum(1 for o in ops if not o.discounted)', 'delta = len(ops)', DROP, RAWTEXT),
    (RT, '_layout', 'ident = ("n", frozenset(image)) if None not in image else ("n", "open")',
     'ident = ("n", "open")', CONSTANT, RAWTEXT),
    (RT, 'blocks_of', 'if merge and groups and groups[-1][0][0] <= min(merge):', 'if False:', DROP, RAWTEXT),
    (ER, '_to_kept', 'first = next((at[g] for g in b.gold if g in at), None)',
     'first = next((at[g] for g in reversed(b.gold) if g in at), None)', SIDE, RAWTEXT),
    (ER, 'aligned_attachment', 'p.deprel == g.deprel\n                or (deprel_base',
     'True\n                or (deprel_base', DROP, (*RAWTEXT, LABELS)),
    (ER, 'is_raw', 'return "".join(g_text) == "".join(p_text)', 'return True', EARLY, RAWTEXT),
    ("evalcore/ted/general.py", '_anchored', 'if hit is None:', 'if True:', DROP, RAWTEXT),
]

# fmt: off
TG = "evalcore/ted/general.py"
SPINE = ("tests/test_ted_spine.py", "tests/test_rawtext.py")
_RAW += [
    # ---- the spine path of the general TED and the one-pass layout (docs/rawtext.md, "Time") ----
    (TG, '_spine', 'groups.setdefault((region_x[i], region_y[j]), []).append((i, j))',
     'groups.setdefault((region_x[i], region_x[i]), []).append((i, j))', SIDE, SPINE),
    (TG, '_regions', 'region[i] = (a, seen[a])', 'region[i] = (a, 0)', CONSTANT, SPINE),
    (TG, '_close', 'if other is not None and not spines[1 - side][other]:', 'if False:', DROP, SPINE),
    (TG, '_spine_tree', 'kids.setdefault(a, []).append((gap, 0, "group", g))',
     'kids.setdefault(a, []).append((gap, 2, "group", g))', OFF_BY_ONE, SPINE),
    (TG, '_spine', 'ties = [eps * sum(ax[i] != ay[j] for i, j in g) for g in members]',
     'ties = [0.0 for g in members]', CONSTANT, SPINE),
    (TG, '_prepare', 'if ky:\n            ky[0] = -1', 'pass', DROP, SPINE),
    (TG, '_postorder', 'return [i + size[i] - 1 - depth[i] for i in range(n)]',
     'return [i + size[i] - 1 for i in range(n)]', DROP, ("tests/test_ted_anchored.py", *SPINE)),
    (RT, '_layout', 'head = span_head(dep, span)', 'head = min(span) + 1', CONSTANT, RAWTEXT),
    (RT, '_assemble', 'while stack and stack[-1][0] < lo:', 'while stack and stack[-1][0] <= lo:', COMPARISON,
     RAWTEXT),
    (RT, 'block_ted', 'seg = not placed_at[node.sentence].issuperset(node.span)', 'seg = False', CONSTANT,
     RAWTEXT),
    (RT, 'block_ted', 'm = ted_block(px, y, check=check)', 'm = ted_block(px, y)', DROP, RAWTEXT),
    ("evalcore/inspection.py", 'OperationFilter._wants',
     '("discounted" if discounted else "counted")', '("counted" if discounted else "discounted")', SIDE,
     ("tests/test_rawtext.py",)),
    # ---- LAS in the cross-scheme experiment compares relations by the gold's format (docs/tedeval.md) ----
    (ER, 'aligned_attachment', 'or (deprel_base and p.deprel', 'or (not deprel_base and p.deprel', OPERATOR,
     (LABELS,)),
    ("evalcore/experiment.py", 'resolve_labels',
     '(name, universal_labels(config.labels, dialect_of(gold.path or gold.name, first)))',
     '(name, universal_labels(config.labels, "conllu"))', CONSTANT, (LABELS,)),
    ("evalcore/experiment.py", 'counting_config',
     'AttachSettings(labels=LABELS_UNIVERSAL if deprel_base else LABELS_FULL)',
     'AttachSettings(labels=LABELS_FULL)', CONSTANT, (LABELS,)),
    ("evalcore/experiment.py", 'deprel_text', 'if len(kinds) == 1:', 'if len(kinds) >= 1:', COMPARISON,
     (LABELS,)),
    ("evalcore/construction_scores.py", '_attach_pairs',
     'cfgs = {s.name: counting_config(base.get(s.name, False)) for s in schemes}',
     'cfgs = {s.name: counting_config(False) for s in schemes}', CONSTANT, (LABELS,)),
    ("evalcore/ranking.py", 'rank_parses', 'config.signature(result.deprel),',
     'config.signature(""),', DROP, (LABELS,)),
]
# fmt: on

MUTANTS: tuple[Mutant, ...] = tuple(
    Mutant(f"M{k:03d}", file, function, original, replacement, operator, tests)
    for k, (file, function, original, replacement, operator, tests) in enumerate(_RAW, start=1)
)
