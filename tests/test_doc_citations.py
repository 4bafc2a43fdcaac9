"""Code cites the project's docs by section (docs/architecture.md, "Checks that keep the house in order"):
every ``docs/FILE.md, "Section"`` in evalcore, workbench, the pages and app.py names a file that
exists and a heading (or a bold paragraph name) that it has, so a citation cannot silently go stale
when a section is renamed."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CITATION = re.compile(r'docs/([\w/.-]+\.md),\s+"([^"]+)"')


def _sections(doc: Path) -> set[str]:
    text = doc.read_text(encoding="utf-8")
    heads = {re.sub(r"^#+\s*", "", line).strip() for line in text.splitlines() if line.startswith("#")}
    bold = set(re.findall(r"^\*\*([^*]+)\*\*", text, flags=re.M))
    names = {h.replace("`", "").rstrip(".") for h in heads | bold}
    # a heading may be cited by its name before a parenthesis or a colon: "One line parser" for
    # "One line parser (formats/columns.py)"
    return names | {re.split(r" \(|: ", n)[0] for n in names}


def _code_files() -> list[str]:
    out = subprocess.run(
        ["git", "ls-files", "evalcore/*.py", "workbench/*.py", "pages/*.py", "app.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout.split()


def _citations(text: str) -> list[tuple[str, str]]:
    joined = re.sub(r"\s*\n\s*(?:#\s*)?", " ", text)  # a citation may run over lines and comments
    return [(m.group(1), m.group(2).replace("`", "").rstrip(",.;:")) for m in CITATION.finditer(joined)]


def test_a_citation_names_a_section_its_document_has() -> None:
    sections: dict[str, set[str]] = {}
    stale: list[str] = []
    count = 0
    for name in _code_files():
        for doc, section in _citations((ROOT / name).read_text(encoding="utf-8")):
            count += 1
            path = ROOT / "docs" / doc
            if not path.exists():
                stale.append(f"{name}: docs/{doc} does not exist")
                continue
            known = sections.setdefault(doc, _sections(path))
            if section.rstrip(".") not in known:
                stale.append(f'{name}: docs/{doc} has no section "{section}"')
    assert count > 200  # the code cites the docs this way (232 citations when this test was written)
    assert not stale, "\n".join(stale)


def test_the_check_finds_a_stale_citation() -> None:
    cited = _citations(
        'see docs/freval.md, "PARSEVAL as evalb computes it"\n# and docs/freval.md,\n# "No such"'
    )
    assert cited == [("freval.md", "PARSEVAL as evalb computes it"), ("freval.md", "No such")]
    known = _sections(ROOT / "docs" / "freval.md")
    assert cited[0][1] in known and cited[1][1] not in known
