"""The package list, which pyproject.toml alone cannot say.

``assets/`` and ``projects/`` stay at the top of the repository but are installed as
``referee/shipped/assets`` and ``referee/shipped/projects`` (``package-dir`` in
pyproject.toml); setuptools' automatic package finder does not see mapped folders, so
they are added to what it finds here. Everything else is in pyproject.toml.
"""

from setuptools import find_packages, setup

setup(
    packages=[
        *find_packages(include=["referee", "referee.*", "editor", "editor.*"]),
        "referee.shipped.assets",
        "referee.shipped.projects",
    ]
)
