"""Time FREVAL with no size limit (docs/freval.md, "FREVAL"; docs/architecture.md, "Performance targets").

    python benchmarks/bench_freval.py [--repeat N]

Cases, best of N runs each, reading the files included:

* evalb's complete sample (24 sentences with sentence 22: 44 words, 34
  brackets, 6^11 fragments topped by its root alone -- the reference Java
  implementation had not finished enumerating them after 10 minutes).
  Target: under 1 s.
* the 1,921 WSJ trees of ``ptb_wsj_sample`` (99 ``.mrg`` files, concatenated)
  against themselves: every fragment matches, the worst case.  Target: under 10 s.
* FarPaHC split 0, gold vs the Berkeley parser, with the authors' ``.prm``.

Also times ``python -m evalcore freval`` on the sample as a subprocess
(interpreter start-up included).  Data under ../shared/data is optional:
its cases are skipped, with a note, when it is absent.
"""

from __future__ import annotations

import argparse
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from evalcore.formats.prm import COLLINS, read_prm  # noqa: E402
from evalcore.formats.ptb import read_ptb_sentences  # noqa: E402
from evalcore.metrics.freval import FrevalConfig, FrevalResult, freval_corpus  # noqa: E402
from evalcore.metrics.parseval import ParsevalConfig  # noqa: E402

SHARED = ROOT.parent / "shared" / "data"
SAMPLE = ROOT / "assets" / "evalb" / "sample"


def best_of(repeat: int, fn: Callable[[], FrevalResult]) -> tuple[float, FrevalResult]:
    best = float("inf")
    value: FrevalResult | None = None
    for _ in range(repeat):
        start = time.perf_counter()
        value = fn()
        best = min(best, time.perf_counter() - start)
    assert value is not None
    return best, value


def run_case(gold: Path, test: Path, config: FrevalConfig) -> FrevalResult:
    return freval_corpus(read_ptb_sentences(gold), read_ptb_sentences(test), config)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, best of {args.repeat}")
    rows: list[tuple[str, float, FrevalResult, str]] = []

    sample_cfg = FrevalConfig(ParsevalConfig(read_prm(SAMPLE / "sample.prm")))
    t, r = best_of(args.repeat, lambda: run_case(SAMPLE / "sample.gld", SAMPLE / "sample.tst", sample_cfg))
    rows.append(("evalb sample, unlimited", t, r, "< 1 s"))

    with tempfile.TemporaryDirectory() as tmp:
        mrg = sorted((SHARED / "ptb_wsj_sample" / "combined_mrg").glob("*.mrg"))
        if mrg:
            wsj = Path(tmp) / "wsj.mrg"
            wsj.write_bytes(b"".join(f.read_bytes() for f in mrg))
            cfg = FrevalConfig(ParsevalConfig(COLLINS))
            t, r = best_of(args.repeat, lambda: run_case(wsj, wsj, cfg))
            rows.append((f"WSJ sample vs itself ({r.score.sentences} trees), unlimited", t, r, "< 10 s"))
        else:
            print(f"note: {SHARED / 'ptb_wsj_sample'} absent, WSJ case skipped")

    far = SHARED / "farpahc" / "berkeley_split0"
    if far.is_dir():
        cfg = FrevalConfig(ParsevalConfig(read_prm(far / "sample.prm.as_used_for_far0eval")))
        gold, test = far / "far_split0testing.oneline.psd", far / "far_split0machineparsed.psd"
        t, r = best_of(args.repeat, lambda: run_case(gold, test, cfg))
        rows.append(("FarPaHC split 0 vs Berkeley, unlimited", t, r, ""))
    else:
        print(f"note: {far} absent, FarPaHC case skipped")

    print(f"\n{'case':<52} {'seconds':>8}  {'L':>4}  {'FLR':>6} {'FLP':>6} {'F1':>6}  target")
    for name, secs, res, target in rows:
        s = res.score
        scores = f"{100 * s.flr:6.2f} {100 * s.flp:6.2f} {100 * s.f1:6.2f}"
        print(f"{name:<52} {secs:8.3f}  {s.limit:4d}  {scores}  {target}")

    cmd = [sys.executable, "-m", "evalcore", "freval", str(SAMPLE / "sample.gld"), str(SAMPLE / "sample.tst")]
    cmd += ["--prm", str(SAMPLE / "sample.prm"), "--format", "json"]
    best = float("inf")
    for _ in range(args.repeat):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True, cwd=ROOT)
        best = min(best, time.perf_counter() - start)
    print(f"\n`python -m evalcore freval` on the sample, as a subprocess: {best:.3f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
