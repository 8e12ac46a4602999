"""Build of the optional compiled core (ipsoeval/_core.c); metadata is in pyproject.toml.

The extension is optional: when no C compiler is available the install still
succeeds and ipsoeval runs its pure-Python reader and alignment.
"""

import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


def _note(exc: Exception) -> None:
    """One line, on stderr (pip shows it with -v; `ipsoeval --version` says it too)."""
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    sys.stderr.write(f"ipsoeval: note: compiled core not built ({first}); "
                     f"the pure-Python reader serves (slower)\n")


class OptionalBuildExt(build_ext):
    def run(self):
        try:
            super().run()
        except Exception as exc:  # no compiler: the pure-Python path serves
            _note(exc)

    def build_extension(self, ext):
        try:
            super().build_extension(ext)
        except Exception as exc:
            _note(exc)


setup(
    ext_modules=[Extension("ipsoeval._core", ["ipsoeval/_core.c"],
                           extra_compile_args=["-O2", "-std=c99", "-D_GNU_SOURCE"],
                           optional=True)],
    cmdclass={"build_ext": OptionalBuildExt},
)
