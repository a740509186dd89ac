"""The part of the build configuration pyproject.toml cannot say: the bundled data ships
inside the package. The repository keeps it in top-level ``data/`` and ``schema/``; the
wheel (and the sdist, which keeps the repository layout) carry them, installed as
``ragspine_action/_data`` and ``ragspine_action/_schema``, where ``ragspine_action.paths``
finds them with importlib.resources. Everything else is in pyproject.toml."""

from setuptools import find_namespace_packages, setup

# data/ and each folder under it become packages of data files (no Python code in them).
DATA_PACKAGES = [
    "ragspine_action._data",
    *(f"ragspine_action._data.{name}" for name in find_namespace_packages(where="data")),
    "ragspine_action._schema",
]

setup(
    # Namespace discovery, as pyproject's packages.find does: not every folder has __init__.py.
    packages=[
        *find_namespace_packages(
            include=["ragspine_action", "ragspine_action.*"], exclude=["*.__pycache__"]
        ),
        *DATA_PACKAGES,
    ],
    package_dir={"ragspine_action._data": "data", "ragspine_action._schema": "schema"},
    package_data={"ragspine_action": ["py.typed"], **{name: ["*"] for name in DATA_PACKAGES}},
)
