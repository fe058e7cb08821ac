"""The command line's own texts in Brazilian Portuguese: an argparse parser and OS error descriptions.

The parser's usage, headings, help flag and errors are in Portuguese. It lives in `model/`, the
bottom layer that every other part may import, and like `model/` it is standard library only: the
`eleicoes` dispatcher and `python -m model.cli` (what auditors run) share it. Subparsers inherit the
parser class from their parent, so every command registered under it speaks Portuguese too.
"""

from __future__ import annotations

import argparse
import errno
import os
import re
import sys
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, NoReturn

HELP_TEXT = "mostra esta ajuda e sai"
POSITIONALS_TITLE = "argumentos posicionais"
OPTIONALS_TITLE = "opções"
USAGE_PREFIX = "uso: "
DEBUG_ENV = "ELEICOES_DEBUG"  # set (to anything) to see the traceback instead of the one-line error
INTERRUPTED_STATUS = 130  # the shell's convention for a process ended by SIGINT

# argparse's English error messages (Python 3.11+) and their Portuguese wording, tried in order.
# The "argument X: " prefix is translated first, then the rest of the message.
_MESSAGES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.DOTALL), replacement)
    for pattern, replacement in (
        (r"^argument (.+?): (.*)$", r"argumento \1: \2"),
        (r"invalid choice: (.*) \(choose from (.*)\)$", r"escolha inválida: \1 (opções: \2)"),
        (r"^the following arguments are required: (.*)$", r"faltam argumentos obrigatórios: \1"),
        (r"^unrecognized arguments: (.*)$", r"argumentos não reconhecidos: \1"),
        (r"expected one argument$", "espera um valor"),
        (r"expected at most one argument$", "espera no máximo um valor"),
        (r"expected at least one argument$", "espera ao menos um valor"),
        (r"expected (\d+) arguments?$", r"espera \1 valor(es)"),
        (r"invalid (\w+) value: (.*)$", r"valor inválido para \1: \2"),
        (r"^ambiguous option: (.*) could match (.*)$", r"opção ambígua: \1 pode ser \2"),
        (r"not allowed with argument (.*)$", r"não pode ser usado com \1"),
        (r"^one of the arguments (.*) is required$", r"é preciso um dos argumentos \1"),
        (r"ignored explicit argument (.*)$", r"valor explícito ignorado: \1"),
    )
)


def translate(message: str) -> str:
    """The Portuguese wording of an argparse error message (unknown messages are kept as they are)."""
    for pattern, replacement in _MESSAGES:
        message = pattern.sub(replacement, message)
    return message


class HelpFormatter(argparse.HelpFormatter):
    """Help formatter whose usage line starts with "uso:"."""

    def add_usage(
        self,
        usage: str | None,
        actions: Iterable[argparse.Action],
        groups: Iterable[argparse._MutuallyExclusiveGroup],
        prefix: str | None = None,
    ) -> None:
        """Same as argparse's, with the Portuguese prefix when none is given."""
        super().add_usage(usage, actions, groups, USAGE_PREFIX if prefix is None else prefix)


if TYPE_CHECKING:
    _SubParsersBase = argparse._SubParsersAction[argparse.ArgumentParser]
else:  # not subscriptable at run time
    _SubParsersBase = argparse._SubParsersAction


class _SubParsers(_SubParsersBase):
    """Subcommands whose one-line help is also their description when they give none."""

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser:
        if "help" in kwargs and "description" not in kwargs:
            kwargs["description"] = kwargs["help"]
        return super().add_parser(name, **kwargs)


class ArgumentParser(argparse.ArgumentParser):
    """`argparse.ArgumentParser` with Portuguese texts; errors are one line on stderr, exit status 2."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        add_help: bool = kwargs.get("add_help", True)
        kwargs["add_help"] = False  # the Portuguese -h is added below
        super().__init__(*args, **kwargs)
        self._positionals.title = POSITIONALS_TITLE
        self._optionals.title = OPTIONALS_TITLE
        self.register("action", "parsers", _SubParsers)
        if add_help:
            prefix = self.prefix_chars[0]
            self.add_argument(
                prefix + "h", prefix * 2 + "help", action="help", default=argparse.SUPPRESS, help=HELP_TEXT
            )

    def error(self, message: str) -> NoReturn:
        """Print `prog: erro: message` (one line, Portuguese) and exit with status 2."""
        self.exit(2, f"{self.prog}: erro: {translate(message)} (veja {self.prog} --help)\n")


def describe_os_error(exc: OSError) -> str:
    """One Portuguese line for a failed file operation (the path and what was wrong with it)."""
    path = exc.filename if exc.filename is not None else "arquivo"
    known = {
        errno.EISDIR: f"{path} é uma pasta, e era esperado um arquivo",
        errno.ENOTDIR: f"{path}: uma parte do caminho não é uma pasta",
        errno.ENOENT: f"{path} não existe",
        errno.EEXIST: f"{path} já existe e não é uma pasta",
        errno.EACCES: f"sem permissão para acessar {path}",
        errno.EPERM: f"operação não permitida em {path}",
        errno.ENOSPC: f"sem espaço em disco para gravar {path}",
        errno.EROFS: f"{path} está num sistema de arquivos somente leitura",
    }
    if exc.errno in known:
        return known[exc.errno]
    return f"falha de entrada/saída em {path} ({errno.errorcode.get(exc.errno or 0, exc.errno)})"


def describe(exc: BaseException) -> str:
    """One Portuguese line saying what went wrong."""
    if isinstance(exc, OSError):
        return describe_os_error(exc)
    text = " ".join(str(exc).split())
    return (
        f"falha inesperada ({type(exc).__name__}{': ' + text if text else ''}); "
        f"para ver o rastreamento, rode de novo com {DEBUG_ENV}=1"
    )


def run_reporting_errors(prog: str, action: Callable[[], int]) -> int:
    """Run `action` and return its status; an exception becomes `prog: erro: ...`, one Portuguese
    line on stderr, and status 1 (the traceback itself when ELEICOES_DEBUG is set)."""
    try:
        return action()
    except KeyboardInterrupt:
        print(f"{prog}: interrompido", file=sys.stderr)
        return INTERRUPTED_STATUS
    except Exception as exc:
        if os.environ.get(DEBUG_ENV):
            raise
        print(f"{prog}: erro: {describe(exc)}", file=sys.stderr)
        return 1
