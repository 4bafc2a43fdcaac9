"""Planning the experiment's files (``plan_files``, the first step of ``run_experiment``; docs/tedeval.md,
"The cross-scheme experiment and significance").

The expected orders are written out by hand from the rule: each scheme's gold, then its parses,
then the label donors (``--label-from``) of those that have one; generalizations over 2..K golds.
"""

from __future__ import annotations

import pytest

from evalcore.errors import MismatchError
from evalcore.experiment import NamedTrees, Scheme, plan_files


def named(name: str, label_from: NamedTrees | None = None) -> NamedTrees:
    return NamedTrees(name, (), label_from=label_from)


def test_files_are_read_gold_first_then_parses_then_donors() -> None:
    donor = named("p1-dep")
    ud = Scheme("ud", named("ud-gold"), (named("p1", label_from=donor), named("p2")))
    sud = Scheme("sud", named("sud-gold"), (named("p3"),))
    plan = plan_files([ud, sud])
    assert [f.name for f in plan.files] == ["ud-gold", "p1", "p2", "p1-dep", "sud-gold", "p3"]
    assert dict(plan.gold_file) == {"ud": 0, "sud": 4}
    assert [(p.parse.name, p.scheme.name, p.file, p.donor) for p in plan.parses] == [
        ("p1", "ud", 1, 3),
        ("p2", "ud", 2, None),
        ("p3", "sud", 5, None),
    ]
    assert plan.columns == (("p1", "ud"), ("p2", "ud"), ("p3", "sud"))
    assert plan.subsets == (("ud", "sud"),)
    assert not plan.duplicate_parses


def test_three_schemes_give_four_generalizations() -> None:
    """2..3 golds out of 3: three pairs and the triple, in scheme order."""
    plan = plan_files([Scheme(n, named(f"{n}-gold")) for n in ("a", "b", "c")])
    assert plan.subsets == (("a", "b"), ("a", "c"), ("b", "c"), ("a", "b", "c"))
    assert plan.parses == () and plan.columns == ()


def test_duplicate_parse_names_are_noticed_and_duplicate_schemes_refused() -> None:
    plan = plan_files([Scheme("ud", named("g1"), (named("p"),)), Scheme("sud", named("g2"), (named("p"),))])
    assert plan.duplicate_parses
    with pytest.raises(MismatchError, match="scheme names must be distinct"):
        plan_files([Scheme("ud", named("g1")), Scheme("ud", named("g2"))])
    with pytest.raises(ValueError, match="at least one scheme"):
        plan_files([])
