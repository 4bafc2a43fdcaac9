"""Time from `make app` on a fresh clone to HTTP 200 on `/`.

    python benchmarks/bench_first_page.py            # warm: uv's cache as it is
    python benchmarks/bench_first_page.py --cold     # cold: an empty uv and pip cache

Copies the tracked files of this checkout (what a clone holds) to a temporary
folder, runs `make app PORT=...` there with PATH as given (`--system-path`
restricts it to /usr/bin:/bin, Debian's interpreter), polls
http://127.0.0.1:PORT/ and prints the seconds until the first 200, then stops
the server.  Debian packages (graphviz) are assumed installed already; their
download time is not the project's.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def fresh_copy(dest: Path) -> None:
    names = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for raw in names.split(b"\0"):
        if raw and (ROOT / raw.decode()).is_file():
            target = dest / raw.decode()
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / raw.decode(), target)


def first_200(url: str, deadline: float) -> bool:
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return True
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.2)
    return False


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cold", action="store_true", help="start from empty uv/pip caches")
    ap.add_argument("--system-path", action="store_true", help="PATH=/usr/bin:/bin (Debian's python3)")
    ap.add_argument("--port", type=int, default=8765)
    ap.add_argument("--timeout", type=float, default=600)
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        clone = Path(tmp) / "clone"
        fresh_copy(clone)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "UV_"))}
        if args.system_path:
            env = {k: v for k, v in env.items() if not k.startswith(("PYENV", "PYTHON"))}
            env["PATH"] = "/usr/bin:/bin"
        if args.cold:
            env["UV_CACHE_DIR"] = str(Path(tmp) / "uv-cache")
            env["PIP_NO_CACHE_DIR"] = "1"
        start = time.monotonic()
        proc = subprocess.Popen(
            ["make", "app", f"PORT={args.port}"],
            cwd=clone,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            ok = first_200(f"http://127.0.0.1:{args.port}/", start + args.timeout)
            elapsed = time.monotonic() - start
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=30)
        kind = "cold" if args.cold else "warm"
        py = "system python3 (/usr/bin:/bin)" if args.system_path else "python3 on PATH"
        if not ok:
            print(f"{kind}, {py}: no HTTP 200 within {args.timeout:.0f} s", file=sys.stderr)
            return 1
        print(f"{kind}, {py}: make app on a fresh clone -> HTTP 200 on / in {elapsed:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
