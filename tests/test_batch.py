"""``evalcore batch`` (docs/batch.md).

* Every number of the table equals what the single command prints on the same files (attach,
  parseval, freval, tedeval, and the paired tests of ``attach GOLD A B`` / ``freval GOLD A B``).
  These are cross-checks of two paths through evalcore, not reference values: the metrics' own
  values are checked against evalb, the CoNLL scorers and the papers elsewhere.
* The table is the same in this process (``--jobs 1``), on two processes and on a Dask
  ``LocalCluster``.
* A bad manifest is exit 2 and one ``MANIFEST:LINE: message`` line; so is a bad data file met by
  a worker process (the error comes back from it whole).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from ec_support import ASSETS, ROOT

from evalcore.batch import BatchRow, read_manifest, run_batch, serial_map
from evalcore.cli import main
from evalcore.commands.batch import run_local, run_on_dask
from evalcore.errors import InputFormatError, LimitError
from evalcore.limits import Limits
from evalcore.report.batch import BATCH_COLUMNS

SHUFFLES = 500  # enough for the comparison; the CLI runs with the same trials and seed

FR_GOLD = ASSETS / "fr_gsd/fr_gsd-ud-test.r2.16.conllu.gz"
FR_A = ASSETS / "fr_gsd/parses/fr_gsd-test.spacy-ud.conllu.gz"
FR_B = ASSETS / "fr_gsd/parses/fr_gsd-test.spacy-ud-seed1.conllu.gz"
SAMPLE = ASSETS / "evalb/sample"

MANIFEST = f"""
[settings]
shuffles = {SHUFFLES}
seed = 7

[[gold]]
name = "fr"
file = "{FR_GOLD}"
metrics = ["attach", "tedeval"]

[gold.systems]
a = "{FR_A}"
b = "{FR_B}"

[[gold]]
name = "sample"
file = "{SAMPLE / "sample.gld"}"
prm = "{SAMPLE / "sample.prm"}"
metrics = ["parseval", "freval"]

[gold.systems]
tst = "{SAMPLE / "sample.tst"}"
gld = "{SAMPLE / "sample.gld"}"
"""


@pytest.fixture(scope="module")
def manifest_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("batch") / "task.toml"
    path.write_text(MANIFEST, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def table(manifest_path: Path) -> list[BatchRow]:
    return run_batch(read_manifest(str(manifest_path)), Limits(), serial_map)


def _cli_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    assert main(argv) == 0
    out: dict[str, object] = json.loads(capsys.readouterr().out)
    return out


def _cli_pvalues(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, float]:
    """The p-value of each metric that ``evalcore COMMAND GOLD A B`` prints (same trials and seed)."""
    paired = _cli_json([*argv, "--format", "json", "--shuffles", str(SHUFFLES), "--seed", "7"], capsys)
    metrics = paired["metrics"]
    assert isinstance(metrics, list)
    return {m["metric"]: m["p_value"] for m in metrics}


def _scores(table: list[BatchRow], gold: str, system: str, metric: str) -> dict[str, float]:
    return {
        r.score: r.value
        for r in table
        if (r.gold, r.system, r.metric, r.kind) == (gold, system, metric, "score")
    }


def _pvalues(table: list[BatchRow], gold: str, metric: str) -> dict[str, float]:
    return {r.score: r.value for r in table if (r.gold, r.metric, r.kind) == (gold, metric, "p")}


@pytest.mark.slow
def test_the_table_has_a_row_per_gold_system_metric_score(table: list[BatchRow]) -> None:
    keys = {(r.gold, r.system, r.other, r.metric, r.kind) for r in table}
    assert keys == {
        ("fr", "a", "", "attach", "score"),
        ("fr", "b", "", "attach", "score"),
        ("fr", "a", "b", "attach", "p"),
        ("fr", "a", "", "tedeval", "score"),
        ("fr", "b", "", "tedeval", "score"),
        ("fr", "a", "b", "tedeval", "p"),
        ("sample", "tst", "", "parseval", "score"),
        ("sample", "gld", "", "parseval", "score"),
        ("sample", "tst", "", "freval", "score"),
        ("sample", "gld", "", "freval", "score"),
        ("sample", "tst", "gld", "freval", "p"),  # parseval has no paired test
    }
    assert len({(r.gold, r.system, r.other, r.metric, r.score) for r in table}) == len(table)  # no duplicate


@pytest.mark.slow
def test_attach_equals_the_attach_command(table: list[BatchRow], capsys: pytest.CaptureFixture[str]) -> None:
    for name, path in (("a", FR_A), ("b", FR_B)):
        cli = _cli_json(["attach", str(FR_GOLD), str(path), "--format", "json"], capsys)
        assert _scores(table, "fr", name, "attach") == {
            k: cli[k] for k in ("uas", "las", "label", "undirected", "ned")
        }
    cli_p = _cli_pvalues(["attach", str(FR_GOLD), str(FR_A), str(FR_B)], capsys)
    assert _pvalues(table, "fr", "attach") == cli_p


@pytest.mark.slow
def test_parseval_equals_the_parseval_command(
    table: list[BatchRow], capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("tst", "gld"):
        cli = _cli_json(
            [
                "parseval",
                str(SAMPLE / "sample.gld"),
                str(SAMPLE / f"sample.{name}"),
                "--prm",
                str(SAMPLE / "sample.prm"),
                "--format",
                "json",
            ],
            capsys,
        )
        whole = cli["all"]
        assert isinstance(whole, dict)
        batch = _scores(table, "sample", name, "parseval")
        assert batch == {k: whole[k] for k in batch}
        assert set(batch) >= {"recall", "precision", "f1"}
    # evalb's own sample.rsl: Bracketing Recall 87.76, Precision 90.53 (assets/evalb/sample/sample.rsl)
    assert round(_scores(table, "sample", "tst", "parseval")["recall"] * 100, 2) == 87.76
    assert round(_scores(table, "sample", "tst", "parseval")["precision"] * 100, 2) == 90.53


@pytest.mark.slow
def test_freval_equals_the_freval_command(table: list[BatchRow], capsys: pytest.CaptureFixture[str]) -> None:
    gold, prm = str(SAMPLE / "sample.gld"), str(SAMPLE / "sample.prm")
    for name in ("tst", "gld"):
        cli = _cli_json(
            ["freval", gold, str(SAMPLE / f"sample.{name}"), "--prm", prm, "--format", "json"], capsys
        )
        assert _scores(table, "sample", name, "freval") == {k: cli[k] for k in ("flr", "flp", "f1")}
    cli_p = _cli_pvalues(
        ["freval", gold, str(SAMPLE / "sample.tst"), str(SAMPLE / "sample.gld"), "--prm", prm], capsys
    )
    assert _pvalues(table, "sample", "freval") == {k: cli_p[k] for k in ("flr", "flp", "f1")}


@pytest.mark.slow
def test_tedeval_equals_the_tedeval_command(
    table: list[BatchRow], capsys: pytest.CaptureFixture[str]
) -> None:
    cli = _cli_json(
        [
            "tedeval",
            "--scheme",
            "fr",
            str(FR_GOLD),
            f"a={FR_A}",
            f"b={FR_B}",
            "--format",
            "json",
            "--shuffles",
            str(SHUFFLES),
            "--seed",
            "7",
        ],
        capsys,
    )
    rows = cli["rows"]
    assert isinstance(rows, list)
    for name in ("a", "b"):
        assert _scores(table, "fr", name, "tedeval") == {
            r["metric"]: r["score"] for r in rows if r["parse"] == name
        }
    assert _pvalues(table, "fr", "tedeval") == {
        r["metric"]: r["significant_vs"]["b"]["p_value"] for r in rows if r["parse"] == "a"
    }


def test_the_example_manifest_of_the_docs_is_valid() -> None:
    manifest = read_manifest(str(ROOT / "docs/examples/shared_task.toml"))
    assert [g.name for g in manifest.golds] == ["fr_gsd-ud", "evalb-sample", "farpahc"]
    assert all(Path(s.path).is_file() for g in manifest.golds for s in g.systems)


def _cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.slow
def test_same_table_on_one_and_two_processes_and_on_dask(
    manifest_path: Path, table: list[BatchRow], capsys: pytest.CaptureFixture[str]
) -> None:
    from distributed import LocalCluster

    manifest = read_manifest(str(manifest_path))
    assert run_local(manifest, Limits(), 1) == table
    assert run_local(manifest, Limits(), 2) == table
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) as cluster:
        assert run_on_dask(manifest, Limits(), cluster.scheduler_address) == table
        dask_csv = _cli(
            ["batch", str(manifest_path), "--dask", cluster.scheduler_address, "--format", "csv"], capsys
        )
    local_csv = _cli(["batch", str(manifest_path), "--jobs", "2", "--format", "csv"], capsys)
    assert dask_csv == local_csv
    code, out, _ = local_csv
    assert code == 0 and out.splitlines()[0] == ",".join(BATCH_COLUMNS)
    assert len(out.splitlines()) == len(table) + 1


# --- bad manifests ------------------------------------------------------------------------------

GOOD_GOLD = f'''[[gold]]
name = "fr"
file = "{FR_GOLD}"
metrics = ["attach"]
[gold.systems]
a = "{FR_A}"
'''


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ('[[gold]]\nname = "x\nfile = 1\n', 2, "TOML"),  # unterminated string
        (GOOD_GOLD.replace('["attach"]', '["attach", "las"]'), 4, "unknown metric 'las'"),
        (GOOD_GOLD.replace(f'a = "{FR_A}"', 'a = "nosuch.conllu"'), 6, "no such file"),
        (GOOD_GOLD.replace('name = "fr"', 'name = "fr"\ncolour = "red"'), 3, "unknown key 'colour'"),
        (GOOD_GOLD + "\n" + GOOD_GOLD, 8, "two golds are named 'fr'"),
        ("[settings]\nshuffles = 0\n\n" + GOOD_GOLD, 2, "shuffles must be a positive integer"),
        ("[settings]\nshuffles = 10\n", 1, "no [[gold]]"),
        ("[golds]\nname = 1\n", 1, "unknown table 'golds'"),
        (GOOD_GOLD.replace(f'file = "{FR_GOLD}"\n', ""), 1, "needs 'file'"),
        (
            GOOD_GOLD.replace("[gold.systems]", "systems = 3\n[x]").replace(f'a = "{FR_A}"', ""),
            6,
            "table 'x'",
        ),
        (
            GOOD_GOLD.replace("[gold.systems]", "systems = 3").replace(f'a = "{FR_A}"', ""),
            5,
            "systems must be",
        ),
    ],
)
def test_a_bad_manifest_is_exit_2_and_file_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, line: int, words: str
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    code, out, err = _cli(["batch", str(path), "--jobs", "1"], capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"{path}:{line}: "), err
    assert words in err


def test_a_manifest_over_the_input_limit_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "big.toml"
    path.write_text(GOOD_GOLD + "#" * 5000 + "\n", encoding="utf-8")
    with pytest.raises(LimitError, match="--max-input-bytes"):
        read_manifest(str(path), Limits().raised(input_bytes=4096))


def test_a_manifest_that_is_not_utf8_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "latin1.toml"
    path.write_bytes(b"[settings]\nseed = 1\n# caf\xe9\n")
    with pytest.raises(InputFormatError) as info:
        read_manifest(str(path))
    assert str(info.value).startswith(f"{path}:3: ")


def test_a_bad_data_file_in_a_worker_process_is_exit_2_and_its_file_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import gzip

    bad = tmp_path / "bad.conllu"  # its first sentence is the gold's: the files' check lets it through
    with gzip.open(FR_GOLD, "rt", encoding="utf-8") as fh:
        first = fh.read().split("\n\n")[0] + "\n\n"
    bad.write_text(first + "1\tword\t_\tX\t_\t_\tnot-a-head\tdep\t_\t_\n\n", encoding="utf-8")
    line = first.count("\n") + 1  # the bad sentence's line
    path = tmp_path / "task.toml"
    path.write_text(GOOD_GOLD.replace(f'a = "{FR_A}"', f'a = "{bad}"'), encoding="utf-8")
    code, out, err = _cli(["batch", str(path), "--jobs", "2"], capsys)
    assert code == 2 and out == ""
    assert err.startswith(f"{bad}:{line}: ") and err.count("\n") == 1, err


def test_dask_without_the_extra_is_one_line_and_exit_2(manifest_path: Path) -> None:
    probe = (
        "import sys\n"
        "sys.modules['distributed'] = None\n"
        "from evalcore.cli import main\n"
        f"sys.exit(main(['batch', {str(manifest_path)!r}, '--dask', 'tcp://127.0.0.1:1']))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "pip install 'evalcore[dask]'" in done.stderr
