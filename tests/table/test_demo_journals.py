"""The demo's journals are pruned to the last few; a real table's archived journals are never deleted."""

from __future__ import annotations

from pathlib import Path

from toprace_pi.cli import main
from toprace_pi.table.journal import KEPT_ARCHIVES, archive, archived, prune_archives


def test_archive_never_deletes(tmp_path):
    journal = tmp_path / "journal.jsonl"
    for game in range(KEPT_ARCHIVES + 3):
        journal.write_text(f"game {game}\n")
        archive(journal)
    kept = archived(journal)
    assert [p.read_text() for p in kept] == [f"game {n}\n" for n in range(KEPT_ARCHIVES + 3)]  # oldest first


def test_prune_keeps_the_newest_by_the_time_in_their_names(tmp_path):
    journal = tmp_path / "demo.jsonl"
    names = ["demo-20260101-120000.jsonl", "demo-20260101-120000-1.jsonl", "demo-20260101-120000-2.jsonl",
             "demo-20251231-235959.jsonl", "demo-20260102-080000.jsonl"]
    others = ["demo.jsonl", "demo.jsonl.lock", "demo-notes.jsonl", "other-20200101-000000.jsonl"]
    for name in names + others:
        (tmp_path / name).write_text(name)
    deleted = prune_archives(journal, keep=3)
    assert [p.name for p in deleted] == ["demo-20251231-235959.jsonl", "demo-20260101-120000.jsonl"]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(names[1:3] + names[4:] + others)
    assert prune_archives(journal, keep=3) == []


def test_the_demo_says_where_its_journal_goes_and_keeps_the_last_few(capsys, tmp_path):
    journal = tmp_path / "demo.jsonl"
    for seed in range(KEPT_ARCHIVES + 3):
        assert main(["demo", "--bots", "greedy", "--fast", "--no-colour", "--players", "2", "--seed", str(seed),
                     "--journal", str(journal)]) == 0
        out = capsys.readouterr().out
        assert out.startswith(f"the game's journal: {journal} (the {KEPT_ARCHIVES} before it are kept beside it)\n")
        assert out.rstrip().endswith(f"the game's journal: {journal} (toprace-pi replay {journal})")
    assert len(archived(journal)) == KEPT_ARCHIVES and journal.exists()
    newest = archived(journal)[-1]
    assert main(["replay", str(newest), "--fast", "--no-colour"]) == 0  # what is kept still plays back
    assert Path(newest).exists()
