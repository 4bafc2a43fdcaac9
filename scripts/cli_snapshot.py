"""Snapshot the command line's outputs: a fixed list of ``evalcore`` invocations over the built-in
data (``assets/``) and the research data (``../shared/data``), each one's stdout, stderr and exit
code written to a folder, so that a refactoring can show its outputs are byte-identical.

    python scripts/cli_snapshot.py write BEFORE/             # every invocation
    python scripts/cli_snapshot.py compare BEFORE/           # run again, diff, exit 1 on a difference
    python scripts/cli_snapshot.py write tests/golden/cli_snapshots --small   # the committed subset

Each invocation ``NAME`` leaves ``NAME.stdout``, ``NAME.stderr`` and ``NAME.code``.  The commands
run as ``python -m evalcore`` in a fresh interpreter from the repository root (paths in messages
are relative), with the ``EVALCORE_MAX_*`` variables removed and ``COLUMNS=80`` (argparse's help
width).  An invocation that reads ``../shared/data`` is skipped, and said so, when it is absent.
``--small`` keeps the invocations marked small: shipped data only, short outputs, a few seconds in
all; ``tests/test_cli_snapshots.py`` re-runs them against the committed copies (regression pins).
"""

from __future__ import annotations

import argparse
import difflib
import os
import subprocess
import sys
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = "../shared/data"

# shipped data (assets/)
FR_UD = "assets/fr_gsd/fr_gsd-ud-test.r2.16.conllu.gz"
FR_SUD = "assets/fr_gsd/fr_gsd-sud-test.r2.16.conllu.gz"
FR_SPACY_UD = "assets/fr_gsd/parses/fr_gsd-test.spacy-ud.conllu.gz"
FR_SPACY_UD1 = "assets/fr_gsd/parses/fr_gsd-test.spacy-ud-seed1.conllu.gz"
FR_SPACY_SUD = "assets/fr_gsd/parses/fr_gsd-test.spacy-sud.conllu.gz"
EWT_V2 = "assets/en_ewt/en_ewt-ud-test.r2.16.conllu.gz"
EWT_V1 = "assets/en_ewt/en-ud-test.r1.4.conllu.gz"
EWT_SPACY = "assets/en_ewt/en_ewt-ud-test.spacy-sm.gold-tok.conllu.gz"
SAMPLE = "assets/evalb/sample"
COLLINS = "assets/evalb/COLLINS.prm"
NEW_PRM = "assets/evalb/new.prm"
FAR_GOLD = "assets/farpahc/far_split0testing.oneline.psd.gz"
FAR_TEST = "assets/farpahc/far_split0machineparsed.psd.gz"
FAR_PRM = "assets/farpahc/sample.prm.as_used_for_far0eval"
YAP = "assets/hebrew_yap"
YAP_ALT = "tests/fixtures/yap_alternative.conll"
YAP_ALT_LATTICE = "tests/fixtures/yap_alternative.lattice"
# research data (../shared/data)
EXCERPT = f"{DATA}/hebrew/spmrl_hebtb/excerpt_dev_first50"
CONLL18 = f"{DATA}/parser_outputs/conll2018"
GUM = f"{DATA}/gum"
BUG = f"{DATA}/evalb/bug"
WSJ = f"{DATA}/ptb_wsj_sample"


@dataclass(frozen=True)
class Invocation:
    name: str
    argv: tuple[str, ...]
    small: bool = False  # part of the committed subset (shipped data, short output)

    @property
    def needs_data(self) -> bool:
        return any(a.startswith(DATA) or f"={DATA}" in a for a in self.argv)


def _i(name: str, *argv: str, small: bool = False) -> Invocation:
    return Invocation(name, argv, small)


# fmt: off
FR_TWO_GOLDS = ("--scheme", "ud", FR_UD, f"ud={FR_UD}", "--scheme", "sud", FR_SUD, f"sud={FR_SUD}")
FR_PARSES = (
    "--scheme", "ud", FR_UD, f"spacy-ud={FR_SPACY_UD}", f"spacy-ud1={FR_SPACY_UD1}",
    "--scheme", "sud", FR_SUD, f"spacy-sud={FR_SPACY_SUD}",
)
YAP_GOLD = (f"{YAP}/output.conll", "--gold-lattice", f"{YAP}/output.mapping")
HE_SYSTEMS = tuple(
    f"{CONLL18}/he_htb/{s}.he_htb.conllu.gz"
    for s in ("HIT-SCIR-18", "ONLP-lab", "Stanford-18", "UDPipe-Future")
)

INVOCATIONS: tuple[Invocation, ...] = (
    # help and usage
    _i("help", "--help", small=True),
    _i("version", "--version", small=True),
    *(_i(f"{c}_help", c, "--help", small=True)
      for c in ("attach", "tedeval", "parseval", "freval", "lattice")),
    _i("usage_no_command", small=True),
    # attach
    _i("attach_fr_text", "attach", FR_UD, FR_SUD, small=True),
    _i("attach_fr_json", "attach", FR_UD, FR_SUD, "--format", "json", small=True),
    _i("attach_fr_csv", "attach", FR_UD, FR_SUD, "--format", "csv", small=True),
    _i("attach_fr_per_sentence_text", "attach", FR_UD, FR_SUD, "--per-sentence"),
    _i("attach_fr_per_sentence_json", "attach", FR_UD, FR_SUD, "--per-sentence", "--format", "json"),
    _i("attach_fr_options", "attach", FR_UD, FR_SUD, "--no-punct", "--deprel-base", "--max-len", "10"),
    _i("attach_fr_strict", "attach", FR_UD, FR_SPACY_UD, "--strict", "--format", "json"),
    _i("attach_fr_max_len_negative", "attach", FR_UD, FR_SUD, "--max-len", "-1", small=True),
    _i("attach_ewt_spacy", "attach", EWT_V2, EWT_SPACY, "--deprel-base"),
    _i("attach_ewt_spacy_csv_per_sentence", "attach", EWT_V2, EWT_SPACY, "--per-sentence", "--format", "csv"),
    _i("attach_ewt_v1_v2_mismatch", "attach", EWT_V2, EWT_V1, small=True),
    _i("attach_missing_file", "attach", FR_UD, "no/such/file.conllu", small=True),
    _i("attach_conll18_fr", "attach", f"{CONLL18}/fr_gsd/gold.fr_gsd.conllu.gz",
       f"{CONLL18}/fr_gsd/conll18-baseline.fr_gsd.conllu.gz"),
    _i("attach_conll18_he_raw_scorer_table", "attach", f"{CONLL18}/he_htb/gold.he_htb.conllu.gz",
       f"{CONLL18}/he_htb/UDPipe-Future.he_htb.conllu.gz", "--format", "conll18"),
    # tedeval
    _i("tedeval_readme_text", "tedeval", *FR_TWO_GOLDS),
    _i("tedeval_readme_json", "tedeval", *FR_TWO_GOLDS, "--format", "json"),
    _i("tedeval_readme_csv", "tedeval", *FR_TWO_GOLDS, "--format", "csv"),
    _i("tedeval_readme_latex", "tedeval", *FR_TWO_GOLDS, "--format", "latex"),
    _i("tedeval_parses_text", "tedeval", *FR_PARSES, "--shuffles", "1000"),
    _i("tedeval_parses_json", "tedeval", *FR_PARSES, "--shuffles", "1000", "--format", "json"),
    _i("tedeval_parses_csv", "tedeval", *FR_PARSES, "--shuffles", "1000", "--format", "csv"),
    _i("tedeval_parses_latex", "tedeval", *FR_PARSES, "--shuffles", "1000", "--format", "latex"),
    _i("tedeval_parses_per_sentence", "tedeval", *FR_PARSES, "--shuffles", "200", "--per-sentence",
       "--format", "json"),
    _i("tedeval_parses_2011_bootstrap", "tedeval", *FR_PARSES, "--protocol", "2011", "--test", "bootstrap",
       "--shuffles", "500", "--seed", "7"),
    _i("tedeval_parses_sentence_avg", "tedeval", *FR_PARSES, "--average", "sentence", "--fold-case",
       "--projectivize", "--shuffles", "300", "--format", "json"),
    _i("tedeval_ewt_mismatch", "tedeval", "--scheme", "ud2", EWT_V2, "--scheme", "ud1", EWT_V1, small=True),
    _i("tedeval_ewt_skip_mismatched", "tedeval", "--scheme", "ud2", EWT_V2, f"spacy={EWT_SPACY}",
       "--scheme", "ud1", EWT_V1, "--skip-mismatched", "--shuffles", "300"),
    _i("tedeval_farpahc_constituency", "tedeval", "--scheme", "far", FAR_GOLD, f"berkeley={FAR_TEST}",
       "--function-sep=-=*", "--skip-mismatched", "--shuffles", "200", "--format", "json"),
    _i("tedeval_farpahc_2011_constituency", "tedeval", "--protocol", "2011", "--scheme", "far", FAR_GOLD,
       small=True),
    _i("tedeval_label_from_unknown", "tedeval", "--scheme", "ud", FR_UD, f"p={FR_SPACY_UD}",
       "--label-from", f"nosuch={FR_SPACY_UD}", small=True),
    _i("tedeval_scheme_without_gold", "tedeval", "--scheme", "ud", small=True),
    _i("tedeval_gum_ud_ptb", "tedeval", "--scheme", "ud", f"{GUM}/dep/GUM_bio_dvorak.conllu",
       f"udgold={GUM}/dep/GUM_bio_dvorak.conllu", "--scheme", "ptb", f"{GUM}/const/GUM_bio_dvorak.ptb",
       f"ptbgold={GUM}/const/GUM_bio_dvorak.ptb", "--shuffles", "100"),
    _i("tedeval_gum_label_from", "tedeval", "--scheme", "ud", f"{GUM}/dep/GUM_bio_dvorak.conllu",
       f"ptb={GUM}/const/GUM_bio_dvorak.ptb", "--label-from", f"ptb={GUM}/dep/GUM_bio_dvorak.conllu",
       "--shuffles", "100", "--format", "csv"),
    # parseval (evalb)
    _i("parseval_sample_2006", "parseval", f"{SAMPLE}/sample.gld", f"{SAMPLE}/sample.tst",
       "--prm", f"{SAMPLE}/sample.prm", small=True),
    _i("parseval_sample_1997", "parseval", f"{SAMPLE}/sample.gld", f"{SAMPLE}/sample.tst",
       "--prm", f"{SAMPLE}/sample.prm", "--evalb-version", "1997", small=True),
    _i("parseval_sample_json", "parseval", f"{SAMPLE}/sample.gld", f"{SAMPLE}/sample.tst",
       "--prm", f"{SAMPLE}/sample.prm", "--format", "json", small=True),
    _i("parseval_sample_collins", "parseval", f"{SAMPLE}/sample.gld", f"{SAMPLE}/sample.tst",
       "--prm", COLLINS),
    _i("parseval_sample_new_prm_1997", "parseval", f"{SAMPLE}/sample.gld", f"{SAMPLE}/sample.tst",
       "--prm", NEW_PRM, "--evalb-version", "1997"),
    _i("parseval_sample_default_options", "parseval", f"{SAMPLE}/sample.gld", f"{SAMPLE}/sample.tst",
       "--unlabeled", "--cutoff-len", "10", "--max-error", "100", "--drop-unlabeled-root",
       "--input", "line"),
    _i("parseval_sample_input_tree", "parseval", f"{SAMPLE}/sample.gld", f"{SAMPLE}/sample.tst",
       "--input", "tree", small=True),
    _i("parseval_sample_max_error_reached", "parseval", f"{SAMPLE}/sample.gld", f"{SAMPLE}/sample.tst",
       "--max-error", "3", small=True),
    _i("parseval_sample_negative_cutoff", "parseval", f"{SAMPLE}/sample.gld", f"{SAMPLE}/sample.tst",
       "--cutoff-len", "-1", small=True),
    _i("parseval_farpahc_2006", "parseval", FAR_GOLD, FAR_TEST, "--prm", FAR_PRM,
       "--function-separators=-=*"),
    _i("parseval_farpahc_1997_json", "parseval", FAR_GOLD, FAR_TEST, "--prm", FAR_PRM,
       "--function-separators=-=*", "--evalb-version", "1997", "--format", "json"),
    _i("parseval_farpahc_max_error", "parseval", FAR_GOLD, FAR_TEST, "--max-error", "5"),
    _i("parseval_bug_2006", "parseval", f"{BUG}/bug.gld", f"{BUG}/bug.tst", "--prm", COLLINS),
    _i("parseval_bug_1997", "parseval", f"{BUG}/bug.gld", f"{BUG}/bug.tst", "--prm", COLLINS,
       "--evalb-version", "1997"),
    _i("parseval_wsj_self", "parseval", f"{WSJ}/combined_mrg/wsj_0001.mrg",
       f"{WSJ}/combined_mrg/wsj_0001.mrg", "--format", "json"),
    # freval
    _i("freval_sample_text", "freval", f"{SAMPLE}/sample.gld", f"{SAMPLE}/sample.tst",
       "--prm", f"{SAMPLE}/sample.prm", small=True),
    _i("freval_sample_json", "freval", f"{SAMPLE}/sample.gld", f"{SAMPLE}/sample.tst",
       "--prm", f"{SAMPLE}/sample.prm", "--format", "json", small=True),
    _i("freval_sample_csv", "freval", f"{SAMPLE}/sample.gld", f"{SAMPLE}/sample.tst",
       "--prm", f"{SAMPLE}/sample.prm", "--format", "csv", small=True),
    _i("freval_sample_max_size_alpha", "freval", f"{SAMPLE}/sample.gld", f"{SAMPLE}/sample.tst",
       "--max-size", "3", "--alpha", "0.5,0.3,0.2", "--strict", "--collapse-unary"),
    _i("freval_sample_unlabeled_cutoff", "freval", f"{SAMPLE}/sample.gld", f"{SAMPLE}/sample.tst",
       "--unlabeled", "--cutoff-len", "20", "--drop-unlabeled-root"),
    _i("freval_bad_alpha", "freval", f"{SAMPLE}/sample.gld", f"{SAMPLE}/sample.tst", "--alpha", "x,y",
       small=True),
    _i("freval_farpahc_text", "freval", FAR_GOLD, FAR_TEST, "--prm", FAR_PRM, "--function-separators=-=*"),
    _i("freval_farpahc_csv", "freval", FAR_GOLD, FAR_TEST, "--max-size", "4", "--format", "csv"),
    # lattice
    _i("lattice_yap_text", "lattice", *YAP_GOLD, f"yap={YAP}/output.conll", "--pred-lattice",
       f"{YAP}/output.segmentation", "--ambiguity-lattice", f"{YAP}/input.lattice", small=True),
    _i("lattice_yap_json_per_sentence", "lattice", *YAP_GOLD, f"yap={YAP}/output.conll", "--pred-lattice",
       f"{YAP}/output.segmentation", "--ambiguity-lattice", f"{YAP}/input.lattice", "--per-sentence",
       "--format", "json", small=True),
    _i("lattice_yap_alternative_no_boundaries", "lattice", *YAP_GOLD, f"alt={YAP_ALT}", small=True),
    _i("lattice_yap_alternative_text_per_sentence", "lattice", *YAP_GOLD, f"alt={YAP_ALT}",
       "--pred-lattice", YAP_ALT_LATTICE, "--per-sentence", small=True),
    _i("lattice_yap_alternative_csv", "lattice", *YAP_GOLD, f"alt={YAP_ALT}", f"self={YAP}/output.conll",
       "--pred-lattice", YAP_ALT_LATTICE, "--pred-lattice", f"{YAP}/output.mapping", "--format", "csv",
       small=True),
    _i("lattice_yap_alternative_lattice_json", "lattice", *YAP_GOLD, f"alt={YAP_ALT}", "--pred-lattice",
       YAP_ALT_LATTICE, "--protocol", "2011", "--tag-column", "fpos", "--average", "sentence",
       "--format", "json", "--per-sentence", small=True),
    _i("lattice_yap_scenario_raw", "lattice", *YAP_GOLD, f"alt={YAP_ALT}", "--pred-lattice",
       YAP_ALT_LATTICE, "--scenario", "raw", "--deprel-base", small=True),
    _i("lattice_yap_pred_lattice_count", "lattice", *YAP_GOLD, f"{YAP}/output.conll", f"{YAP}/output.conll",
       "--pred-lattice", f"{YAP}/output.mapping", small=True),
    _i("lattice_not_a_path", "lattice", f"{YAP}/output.mapping", f"{YAP}/input.lattice", small=True),
    _i("lattice_spmrl_excerpt_self", "lattice", "--gold-lattice", f"{EXCERPT}/dev_hebtb-gold.lattices",
       "--pred-lattice", f"{EXCERPT}/dev_hebtb-gold.lattices", f"{EXCERPT}/dev_hebtb-gold.conll",
       f"{EXCERPT}/dev_hebtb-gold.conll", "--ambiguity-lattice", f"{EXCERPT}/dev_hebtb.lattices"),
    _i("lattice_spmrl_excerpt_per_sentence", "lattice", "--gold-lattice",
       f"{EXCERPT}/dev_hebtb-gold.lattices", f"{EXCERPT}/dev_hebtb-gold.conll",
       f"seg={EXCERPT}/dev_hebtb-gold.lattices", "--per-sentence"),
    _i("lattice_spmrl_excerpt_no_boundaries", "lattice", "--gold-lattice",
       f"{EXCERPT}/dev_hebtb-gold.lattices", f"{EXCERPT}/dev_hebtb-gold.conll",
       f"{EXCERPT}/dev_hebtb-gold.conll"),
    _i("lattice_conll18_he_raw", "lattice", f"{CONLL18}/he_htb/gold.he_htb.conllu.gz", *HE_SYSTEMS),
    _i("lattice_conll18_he_per_sentence_json", "lattice", f"{CONLL18}/he_htb/gold.he_htb.conllu.gz",
       HE_SYSTEMS[1], "--per-sentence", "--format", "json"),
    _i("lattice_conll18_en_deprel_base", "lattice", f"{CONLL18}/en_ewt/gold.en_ewt.conllu.gz",
       f"{CONLL18}/en_ewt/UDPipe-Future.en_ewt.conllu.gz", "--deprel-base", "--per-sentence"),
    _i("lattice_conll18_fr_csv", "lattice", f"{CONLL18}/fr_gsd/gold.fr_gsd.conllu.gz",
       f"{CONLL18}/fr_gsd/UDPipe-Future.fr_gsd.conllu.gz",
       f"{CONLL18}/fr_gsd/conll18-baseline.fr_gsd.conllu.gz", "--format", "csv"),
    # intervals and paired tests (--bootstrap, GOLD A B)
    _i("bootstrap_attach_fr_text", "attach", FR_UD, FR_SPACY_UD, "--bootstrap", "300", small=True),
    _i("bootstrap_attach_fr_two_systems_json", "attach", FR_UD, FR_SPACY_UD, FR_SPACY_UD1, "--shuffles",
       "1000", "--bootstrap", "200", "--format", "json", small=True),
    _i("bootstrap_attach_bad_level", "attach", FR_UD, FR_SPACY_UD, "--bootstrap", "10", "--level", "95",
       small=True),
    _i("bootstrap_conll18_en_two_systems", "attach", "--format", "conll18",
       f"{CONLL18}/en_ewt/gold.en_ewt.conllu.gz", f"{CONLL18}/en_ewt/UDPipe-Future.en_ewt.conllu.gz",
       f"{CONLL18}/en_ewt/conll18-baseline.en_ewt.conllu.gz", "--shuffles", "2000", "--bootstrap", "500"),
    _i("bootstrap_freval_sample_csv", "freval", f"{SAMPLE}/sample.gld", f"{SAMPLE}/sample.tst",
       "--max-size", "4", "--bootstrap", "300", "--format", "csv"),
    _i("bootstrap_freval_sample_two_systems", "freval", f"{SAMPLE}/sample.gld", f"{SAMPLE}/sample.tst",
       f"{SAMPLE}/sample.gld", "--max-size", "4", "--shuffles", "1000"),
    _i("bootstrap_tedeval_fr_text", "tedeval", *FR_PARSES, "--shuffles", "1000", "--bootstrap", "300"),
    _i("bootstrap_lattice_he_raw_json", "lattice", f"{CONLL18}/he_htb/gold.he_htb.conllu.gz",
       HE_SYSTEMS[1], "--bootstrap", "300", "--format", "json"),
)
# fmt: on


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("EVALCORE_MAX_")}
    env["COLUMNS"] = "80"
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    env["PYTHONIOENCODING"] = "utf-8"
    return env


def run_one(inv: Invocation) -> tuple[bytes, bytes, int]:
    """stdout, stderr and exit code of ``python -m evalcore ARGV`` from the repository root."""
    proc = subprocess.run(
        [sys.executable, "-m", "evalcore", *inv.argv], capture_output=True, cwd=ROOT, env=_env(), check=False
    )
    return proc.stdout, proc.stderr, proc.returncode


def selected(small: bool, only: Sequence[str] = ()) -> list[Invocation]:
    chosen = [i for i in INVOCATIONS if (i.small or not small) and (not only or i.name in only)]
    return chosen


def available(inv: Invocation) -> bool:
    return not inv.needs_data or (ROOT / DATA).is_dir()


def _files(out: bytes, err: bytes, code: int) -> dict[str, bytes]:
    return {"stdout": out, "stderr": err, "code": f"{code}\n".encode()}


def _run_all(invs: list[Invocation], jobs: int) -> list[tuple[Invocation, dict[str, bytes]]]:
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(run_one, invs))
    return [(inv, _files(*res)) for inv, res in zip(invs, results, strict=True)]


def _diff(name: str, part: str, before: bytes, after: bytes) -> str:
    lines = difflib.unified_diff(
        before.decode("utf-8", "replace").splitlines(keepends=True),
        after.decode("utf-8", "replace").splitlines(keepends=True),
        f"before/{name}.{part}",
        f"after/{name}.{part}",
        n=1,
    )
    return "".join(list(lines)[:40])


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("action", choices=("write", "compare", "list"))
    ap.add_argument("folder", type=Path, nargs="?")
    ap.add_argument("--small", action="store_true", help="only the committed subset")
    ap.add_argument("--only", nargs="*", default=[], metavar="NAME")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    invs = selected(args.small, args.only)
    if args.action == "list":
        for inv in invs:
            print(inv.name, " ".join(inv.argv), "(data)" if inv.needs_data else "")
        return 0
    if args.folder is None:
        ap.error("a folder is needed")
    skipped = [i.name for i in invs if not available(i)]
    if skipped:
        print(f"skipped (no {DATA}): {', '.join(skipped)}", file=sys.stderr)
    results = _run_all([i for i in invs if available(i)], args.jobs)
    if args.action == "write":
        args.folder.mkdir(parents=True, exist_ok=True)
        for inv, files in results:
            for part, data in files.items():
                (args.folder / f"{inv.name}.{part}").write_bytes(data)
        print(f"{len(results)} invocations written to {args.folder}")
        return 0
    differ = 0
    for inv, files in results:
        for part, data in files.items():
            path = args.folder / f"{inv.name}.{part}"
            before = path.read_bytes() if path.exists() else b"<missing>\n"
            if before != data:
                differ += 1
                print(f"DIFFERS: {inv.name}.{part}\n{_diff(inv.name, part, before, data)}")
    print(f"{len(results)} invocations compared with {args.folder}: {differ} difference(s)")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
