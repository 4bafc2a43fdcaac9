"""The label maps shipped in ``assets/labelmaps/`` (docs/labels.md)."""

from __future__ import annotations

import subprocess
import sys
from itertools import islice

import pytest
from ec_support import ASSETS, ROOT

from evalcore.conversion import LabelMap, SchemeLabelMaps, read_label_map, words_of
from evalcore.experiment import ExperimentConfig, NamedTrees, Scheme, run_experiment
from evalcore.formats.conllu import read_conllu

MAPS = ASSETS / "labelmaps"
NAMES = (
    "ud1-ud2.en_ewt.map",
    "clearnlp-ud2.en_ewt.map",
    "ud-sud.fr_gsd.map",
    "sud-ud.fr_gsd.map",
)
EXPERIMENT_MAPS = {"farpahc-ud.map": ASSETS / "farpahc" / "eacl" / "maps" / "psd-to-ud.map"}


@pytest.mark.parametrize("name", NAMES)
def test_each_map_reads_and_says_where_it_comes_from(name: str) -> None:
    path = MAPS / name
    mapping = read_label_map(path)
    assert mapping.pairs  # a map that renames nothing would not be shipped
    head = path.read_text(encoding="utf-8").splitlines()[:12]
    assert any(line.startswith("# made 2026-11-26 by scripts/make_labelmaps.py") for line in head)
    assert any(line.startswith("#   evalcore align-labels ") for line in head)
    assert any("reviewed by hand" in line for line in head)
    assert all(new != "hd" for _, new in mapping.pairs)  # the review drops head switches (README)


@pytest.mark.parametrize("name", sorted(EXPERIMENT_MAPS))
def test_experiment_map_is_shipped_once_as_a_link_to_the_experiments_reviewed_map(name: str) -> None:
    """The FarPaHC map the app offers is the file the experiment scores with (one copy: a link),
    reviewed after ``align-labels`` proposed it on the map set (its header says so)."""
    path = MAPS / name
    assert path.is_symlink()
    assert path.resolve() == EXPERIMENT_MAPS[name].resolve()
    mapping = read_label_map(path)
    assert mapping.pairs
    head = path.read_text(encoding="utf-8").splitlines()[:12]
    assert any("align-labels" in line and "proposed on the map set" in line for line in head)
    assert all(new != "hd" for _, new in mapping.pairs)


def test_ud_v1_to_v2_map_has_the_change_log_renamings() -> None:
    """UD v2 change log (https://universaldependencies.org/v2/summary.html): dobj → obj,
    nsubjpass → nsubj:pass, csubjpass → csubj:pass, auxpass → aux:pass, mwe → fixed, name → flat."""
    pairs = set(read_label_map(MAPS / "ud1-ud2.en_ewt.map").pairs)
    expected = {
        ("dobj", "obj"),
        ("nsubjpass", "nsubj:pass"),
        ("csubjpass", "csubj:pass"),
        ("auxpass", "aux:pass"),
        ("mwe", "fixed"),
        ("name", "flat"),
    }
    assert expected <= pairs


@pytest.mark.slow
def test_ud_v1_map_raises_l_ted_of_the_v1_gold_against_the_v2_gold() -> None:
    """The v1 gold read as a parse of its own scheme, scored against the v2 gold (first 300
    sentences with the same words): the per-scheme map renames v1's labels, so fewer relabels are
    counted; the unlabeled score, which ignores names, does not move."""
    v1 = list(islice(read_conllu(ASSETS / "en_ewt" / "en-ud-test.r1.4.conllu.gz"), 300))
    v2 = list(islice(read_conllu(ASSETS / "en_ewt" / "en_ewt-ud-test.r2.16.conllu.gz"), 300))
    keep = [i for i in range(300) if words_of(v1[i]) == words_of(v2[i])]
    g1 = NamedTrees("v1", tuple(v1[i] for i in keep))
    g2 = NamedTrees("v2", tuple(v2[i] for i in keep))
    schemes = [Scheme("v1", g1, (NamedTrees("v1gold", g1.trees),)), Scheme("v2", g2)]
    config = ExperimentConfig(shuffles=10)
    plain = run_experiment(schemes, config)
    maps = SchemeLabelMaps.of({"v1": read_label_map(MAPS / "ud1-ud2.en_ewt.map")})
    mapped = run_experiment(schemes, config, label_maps=maps)

    def score(result, metric):  # type: ignore[no-untyped-def]
        return result.row("v2", metric).cell("v1gold").score

    assert score(mapped, "L-TED") > score(plain, "L-TED")
    assert score(mapped, "U-TED") == score(plain, "U-TED")
    assert mapped.sentences == plain.sentences == len(keep)
    assert SchemeLabelMaps.of({"v1": LabelMap()}).fingerprint() == "v1=none"


@pytest.mark.slow
def test_shipped_maps_are_what_the_script_makes() -> None:
    """Regression pin: the committed maps equal ``scripts/make_labelmaps.py``'s output (a map whose
    inputs are not in this tree is skipped by the script)."""
    res = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "make_labelmaps.py"), "--check"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert res.returncode == 0, res.stderr
