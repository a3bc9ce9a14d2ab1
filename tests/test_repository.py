"""The repository stands alone: no file refers to material beside it, and every citation of
docs/RULES.md by section names a section that exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SKIP_DIRS = {".git", "__pycache__", ".mypy_cache", ".pytest_cache", ".hypothesis", "data", "build", "dist"}
TEXT_SUFFIXES = {".py", ".md", ".toml", ".cfg", ".ini", ".txt", ".yml", ".yaml", ""}

# the material the project began from lay in a folder beside the repository, on one machine;
# the patterns are joined from pieces so that this file does not match itself
_SHARED = "sha" + "red"
OUTSIDE = re.compile("|".join([r"\.\./" + _SHARED, "/" + "work/", _SHARED + "/sgf-samples", _SHARED + "/seeds"]))
CITATION = re.compile(r"docs/RULES\.md §(\d+)(?:\.(\d+))?")


def _text_files() -> list[Path]:
    files = []
    for path in ROOT.rglob("*"):
        rel = path.relative_to(ROOT)
        if any(part in SKIP_DIRS or part.startswith(".") or part.endswith(".egg-info") for part in rel.parts[:-1]):
            continue
        if path.is_file() and path.suffix in TEXT_SUFFIXES and path.stat().st_size < 2_000_000:
            files.append(path)
    return files


def test_no_file_refers_to_material_beside_the_repository():
    found = []
    for path in _text_files():
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            if OUTSIDE.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []


def _rules_sections() -> dict[int, int]:
    """Section number -> how many numbered steps it has (docs/RULES.md's ``## N.`` headings)."""
    sections: dict[int, int] = {}
    current = None
    for line in (ROOT / "docs" / "RULES.md").read_text().splitlines():
        heading = re.match(r"## (\d+)\.", line)
        if heading:
            current = int(heading.group(1))
            sections[current] = 0
            continue
        step = re.match(r"(\d+)\. ", line)
        if current is not None and step:
            sections[current] = max(sections[current], int(step.group(1)))
    return sections


def test_every_citation_of_the_rules_names_a_section_that_exists():
    sections = _rules_sections()
    assert set(sections) == set(range(1, 10))
    wrong = []
    for path in _text_files():
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            for match in CITATION.finditer(line):
                section, step = int(match.group(1)), match.group(2)
                if section not in sections or (step is not None and not 1 <= int(step) <= sections[section]):
                    wrong.append(f"{path.relative_to(ROOT)}:{number}: {match.group(0)}")
    assert wrong == []
