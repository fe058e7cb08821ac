"""Build errors: a small hierarchy the CLI maps to exit codes and Portuguese messages."""

from __future__ import annotations


class BuildError(Exception):
    """A build that cannot finish; the previous output stays as it was."""

    exit_code = 1


class ContentError(BuildError):
    """A content or data file that cannot be read (bad front matter, bad JSON, bad field)."""

    def __init__(self, path: str, problem: str, line: int = 0, field: str = "") -> None:
        where = f"{path}:{line}" if line else path
        super().__init__(f"{where}: {field}: {problem}" if field else f"{where}: {problem}")
        self.path = path
        self.problem = problem
        self.line = line  # in the file, from 1; 0 when unknown
        self.field = field


class ConfigError(BuildError):
    """The site configuration is invalid."""

    exit_code = 2


class DuplicatePathError(BuildError):
    """Two artifacts want the same output path (e.g. two slugs that normalise alike)."""


class StrictModeError(BuildError):
    """`--strict` turned warnings into a failed build."""
