"""Build of the optional compiled core (ipsoeval/_core.c); metadata is in pyproject.toml.

The extension is optional: when no C compiler is available the install still
succeeds and ipsoeval runs its pure-Python reader and alignment.
"""

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class OptionalBuildExt(build_ext):
    def run(self):
        try:
            super().run()
        except Exception as exc:  # no compiler: the pure-Python path serves
            print(f"ipsoeval: compiled core not built ({exc}); using the Python path")

    def build_extension(self, ext):
        try:
            super().build_extension(ext)
        except Exception as exc:
            print(f"ipsoeval: compiled core not built ({exc}); using the Python path")


setup(
    ext_modules=[Extension("ipsoeval._core", ["ipsoeval/_core.c"],
                           extra_compile_args=["-O2", "-std=c99", "-D_GNU_SOURCE"],
                           optional=True)],
    cmdclass={"build_ext": OptionalBuildExt},
)
