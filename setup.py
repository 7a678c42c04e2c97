"""Build the compiled fast paths (Cython) next to the pure-Python package; everything else is in pyproject.toml.

Every ``src/cosmodeck/**/*.pyx`` becomes an extension module of the same dotted name, compiled with the
machine's C compiler when the package is installed (``make install`` runs ``pip install -e``, which builds
them in place). The readable Python engines stay the reference; docs/ENGINE.md says how each fast path is
proved identical to it.
"""

from __future__ import annotations

from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

SRC = Path(__file__).resolve().parent / "src"


def _extensions() -> list[Extension]:
    found = []
    for pyx in sorted(SRC.rglob("*.pyx")):
        rel = pyx.relative_to(SRC)
        name = ".".join(rel.with_suffix("").parts)
        found.append(Extension(name, ["src/" + rel.as_posix()], extra_compile_args=["-O3"]))
    return found


setup(
    ext_modules=cythonize(
        _extensions(),
        compiler_directives={
            "language_level": "3",
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
        quiet=True,
    )
)
