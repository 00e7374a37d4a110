"""The package list, which pyproject.toml alone cannot say.

``assets/``, ``projects/`` and ``docs/positions/`` stay where they are in the repository
but are installed as ``referee/shipped/assets``, ``referee/shipped/projects`` and
``referee/shipped/positions`` (``package-dir`` in
pyproject.toml); setuptools' automatic package finder does not see mapped folders, so
they are added to what it finds here. Everything else is in pyproject.toml.
"""

import warnings

from setuptools import find_packages, setup

# The packs' and projects' sub-folders (riddle/, ringgeister/tiles/, …) are data, not
# packages; setuptools warns about every folder whose name could be imported.
warnings.filterwarnings("ignore", message=r"Package 'referee\.shipped\.")

setup(
    packages=[
        *find_packages(include=["referee", "referee.*", "editor", "editor.*"]),
        "referee.shipped.assets",
        "referee.shipped.projects",
        "referee.shipped.positions",
    ]
)
