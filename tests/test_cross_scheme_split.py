"""The cross-scheme page scores the parses once and the golds read as parses apart, then joins them
(workbench.tedeval.join_parses) and re-tests under other shuffles (workbench.tedeval.ranked): both
must give exactly what one ``run_experiment`` over all the parses gives (docs/tedeval.md, "The cross-scheme
experiment and significance")."""

from __future__ import annotations

from dataclasses import replace

import pytest

from evalcore.experiment import ExperimentConfig, run_experiment
from workbench.cache import load_builtin
from workbench.datasets import builtin
from workbench.tedeval import experiment_schemes, gold_parse_schemes, join_parses, ranked


@pytest.mark.filterwarnings("ignore")
@pytest.mark.slow
def test_golds_as_parses_joined_equal_one_experiment() -> None:
    loaded = load_builtin(builtin("fr_gsd"))
    config = ExperimentConfig(shuffles=300, skip_mismatched=True)
    names = [s.name for s in experiment_schemes(loaded)]
    whole = run_experiment(experiment_schemes(loaded, include_golds=True), config)
    main = run_experiment(experiment_schemes(loaded), config)
    extra = run_experiment(gold_parse_schemes(loaded, main.indices), config)
    joined = join_parses(main, extra, names, config)
    assert joined == whole
    assert [p for p, _ in joined.parses][-1] == "SUD gold (as a parse)"  # after the SUD parses
    # other shuffles and seed: the cells are kept, the tests run again
    other = replace(config, shuffles=200, seed=3)
    assert ranked(main, other) == run_experiment(experiment_schemes(loaded), other)
    with pytest.raises(ValueError, match="same sentences"):
        join_parses(main, replace(extra, sent_ids=extra.sent_ids[1:]), names, config)
