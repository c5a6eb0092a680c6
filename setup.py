"""Build hook: ship the spec's schemas and rules inside the wheel (project metadata lives in
pyproject.toml).

``build_py`` copies, from the repository's ``spec/`` into ``evalport_spec/_bundled/spec/`` of
the build, the files ``evalport-spec validate`` and ``conformance`` need outside a spec
repository (the way check-jsonschema vendors the schemas it knows): ``VERSION``, the draft's
``rules.json``, ``schemas/*.json`` and ``conformance/`` (fixture meta-schema and fixtures), and
the same for every ``releases/<X.Y.Z>/`` (a release's conformance folder is its frozen suite,
so a second implementation can run ``conformance --spec-version X --command ...`` from the
wheel). Editable installs skip the
copy: the package then falls back to the repository it lives in
(``evalport_spec.validation.bundled``).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
BUNDLE_PATTERNS = ("VERSION", "rules.json", "schemas/*.json",
                   "conformance/fixture.schema.json", "conformance/fixtures/*.json",
                   "releases/*/rules.json", "releases/*/schemas/*.json",
                   "releases/*/conformance/fixture.schema.json", "releases/*/conformance/fixtures/*.json")
"""Files of ``spec/`` shipped in the package, as globs relative to ``spec/``."""


def bundle_spec(spec_dir: Path, dest: Path) -> list[Path]:
    """Copy the :data:`BUNDLE_PATTERNS` files of ``spec_dir`` to ``dest`` (same relative
    layout); return the copied destination paths.

    Raises:
        FileNotFoundError: ``spec_dir`` has no ``schemas/*.json`` (an sdist without spec/).
    """
    if not any(spec_dir.glob("schemas/*.json")):
        raise FileNotFoundError(f"{spec_dir}: no schemas/*.json to bundle")
    copied = []
    for pattern in BUNDLE_PATTERNS:
        for src in sorted(spec_dir.glob(pattern)):
            target = dest / src.relative_to(spec_dir)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, target)
            copied.append(target)
    return copied


class BuildPyWithSpec(build_py):
    """``build_py`` that also bundles the spec into ``evalport_spec/_bundled/spec``."""

    def run(self) -> None:
        super().run()
        if not getattr(self, "editable_mode", False):
            bundle_spec(HERE / "spec", Path(self.build_lib) / "evalport_spec" / "_bundled" / "spec")


if __name__ == "__main__":
    setup(cmdclass={"build_py": BuildPyWithSpec})
