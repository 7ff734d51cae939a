"""Builds the Cython engines and searches in ext/ as claimsolve._* modules.

Every extension is one .pyx in ext/ that cimports ext/game.pxd (the C-level
engine interface, ext/game.h).  A new engine or search: add its name below.
"""
import os
import sys

from Cython.Build import cythonize
from setuptools import Extension, find_packages, setup

EXTENSIONS = ["engine", "colorclaim", "claimit", "claim", "alphabeta", "mcts", "learned", "batch"]
# CLAIMSOLVE_EXT=engine,colorclaim builds only those (while one is being written)
if os.environ.get("CLAIMSOLVE_EXT"):
    EXTENSIONS = [e for e in EXTENSIONS if e in os.environ["CLAIMSOLVE_EXT"].split(",")]

compile_args = ["-O3"] if sys.platform != "win32" else ["/O2"]
if sys.platform != "win32":
    # what GCC 14 refuses by default, refused by every GCC and Clang: a build here fails where
    # it would fail on a newer compiler, not only warn
    compile_args += ["-Werror=incompatible-pointer-types", "-Werror=int-conversion",
                     "-Werror=implicit-function-declaration", "-Werror=implicit-int"]
if os.environ.get("CLAIMSOLVE_NATIVE"):
    compile_args.append("-march=native")

extensions = [
    Extension(
        f"claimsolve._{name}",
        [f"ext/{name}.pyx"],
        include_dirs=["ext"],
        extra_compile_args=compile_args,
    )
    for name in EXTENSIONS
    if os.path.exists(f"ext/{name}.pyx")
]

# The click front end lives in cli/ at the top of the repository and is
# installed as claimsolve.cli.  The web board's files (claimsolve/web/static,
# no Python in them) and the shipped weights (claimsolve/data/weights) are
# listed as packages too, so that setuptools installs their data
# (pyproject.toml's package-data) without a warning.
packages = (find_packages(include=["claimsolve", "claimsolve.*"])
            + ["claimsolve.cli", "claimsolve.web.static", "claimsolve.web.static.games",
               "claimsolve.data.weights"])

setup(
    packages=packages,
    package_dir={"claimsolve.cli": "cli"},
    ext_modules=cythonize(
        extensions,
        include_path=["ext"],
        compiler_directives={
            "language_level": 3,
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    ),
)
