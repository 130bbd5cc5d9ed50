"""translator.sources.code: following a launch to its code, on small projects written here."""

from __future__ import annotations

from pathlib import Path

from translator.sources.code import ClassInfo, Project, project_root


def _project(tmp_path: Path) -> Project:
    (tmp_path / ".git").mkdir()
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("from .trainer import Fork as ForkTrainer\n")
    (tmp_path / "pkg" / "trainer.py").write_text(
        "from trl import GRPOTrainer\n\n\nclass Base(GRPOTrainer):\n    pass\n\n\nclass Fork(Base):\n"
        "    def fit(self, batch):\n        if self.config.trainer.rejection_sample:\n"
        "            batch = batch.select(self.kept)\n        lr = cfg['lr']\n        return batch\n"
    )
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "main.py").write_text(
        "from pkg import ForkTrainer\nfrom trl import GRPOTrainer\n\n"
        "trainer_cls = ForkTrainer if args.custom else GRPOTrainer\ntrainer_cls(args=args).train()\n"
    )
    return Project(project_root(str(tmp_path / "run")), str(tmp_path / "run"))


def test_trainer_is_followed_through_a_reexport_and_its_bases(tmp_path: Path) -> None:
    project = _project(tmp_path)
    script = project.script("main.py")
    assert script is not None
    candidates = project.trainer_classes(script)
    # ForkTrainer when args.custom is true (the aliased re-export of pkg/trainer.py's Fork), trl's otherwise.
    assert [(c.condition, c.cls if isinstance(c.cls, str) else c.cls.name) for c in candidates] == [
        (("custom", True), "Fork"),
        (("custom", False), "trl.GRPOTrainer"),
    ]
    fork = candidates[0].cls
    assert isinstance(fork, ClassInfo)
    assert [c.name for c in fork.lineage()] == ["Fork", "Base"]
    assert fork.external_bases() == ["trl.GRPOTrainer"]  # Base imports it from trl: the chain ends there


def test_a_key_read_is_found_with_the_block_it_guards(tmp_path: Path) -> None:
    project = _project(tmp_path)
    path = project.module("pkg.trainer")
    assert path is not None
    reads = project.reads("rejection_sample", [path])
    # One read: the `if` on line 10 (file lines: 1 import, 4 class Base, 8 class Fork, 9 def fit, 10 the if).
    assert [r.line for r in reads] == [10]
    assert len(reads[0].guarded) == 1  # batch = batch.select(...)
    assert [r.line for r in project.reads("lr", [path])] == [12]  # cfg['lr']
    assert project.reads("kept_ratio", [path]) == []


def test_project_root_without_git_is_the_topmost_packaged_folder(tmp_path: Path) -> None:
    (tmp_path / "setup.py").write_text("")
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "requirements.txt").write_text("")
    assert project_root(str(tmp_path / "a" / "b")) == str(tmp_path.resolve())
