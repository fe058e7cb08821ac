"""`eleicoes checagens validar [CAMINHOS]`: every rule of the desk's content, as the pull-request
CI runs it. The rules themselves live in `site_builder/conteudo/regras.py` (the build applies the same).

Besides the rules of each file and across files, it applies the correction policy against git:
a published check whose verdict or text changed since the base revision (HEAD by default; the
target branch in a pull request) must carry a new correction, and a published check cannot be
deleted or unpublished.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from jobs.checagens import historico_git, links_site
from site_builder.br_format import plural
from site_builder.conteudo import regras
from site_builder.conteudo.editores import ARQUIVO as EDITORES
from site_builder.conteudo.editores import Registro, ler_registro
from site_builder.conteudo.registros import Candidato, Checagem, Fonte
from site_builder.conteudo.texto_seguro import MAX_ARQUIVO
from site_builder.markdown_render import MarkdownRenderer

PASTA_CHECAGENS = "content/checagens"
PASTA_CANDIDATOS = "content/candidatos"


@dataclass
class Resultado:
    """What a validation found."""

    problemas: list[regras.Problema] = field(default_factory=list)
    avisos: list[str] = field(default_factory=list)
    checagens: int = 0
    candidatos: int = 0


class UsageError(Exception):
    """A path or revision that cannot be used (exit status 2)."""


@dataclass
class _Arquivo:
    rel: str  # as shown in messages: relative to the project root when inside it
    path: Path


def _rel(raiz: Path, path: Path) -> str:
    resolved = path.resolve()
    try:
        return resolved.relative_to(raiz.resolve()).as_posix()
    except ValueError:
        return resolved.as_posix()


def _pasta(raiz: Path, pasta: str, sufixo: str) -> list[_Arquivo]:
    base = raiz / pasta
    if not base.is_dir():
        return []
    return [_Arquivo(f"{pasta}/{p.name}", p) for p in sorted(base.iterdir()) if p.name.endswith(sufixo)]


def _alvos(raiz: Path, caminhos: Sequence[Path]) -> list[_Arquivo]:
    alvos: list[_Arquivo] = []
    for caminho in caminhos:
        if caminho.is_symlink():
            alvos.append(_Arquivo(_rel(raiz, caminho.parent) + "/" + caminho.name, caminho))
        elif caminho.is_dir():
            files = sorted(p for p in caminho.iterdir() if p.suffix in (".md", ".toml") and p.is_file())
            alvos += [_Arquivo(_rel(raiz, p), p) for p in files]
        elif caminho.is_file():
            alvos.append(_Arquivo(_rel(raiz, caminho), caminho))
        else:
            raise UsageError(f"{caminho}: arquivo ou pasta não encontrado")
    return alvos


def ler_editores(raiz: Path) -> tuple[Registro, list[regras.Problema]]:
    """The project's editors' registry and its problems (a missing registry is one)."""
    try:
        texto = (raiz / EDITORES).read_text(encoding="utf-8")
    except FileNotFoundError:
        ausente = (
            "arquivo ausente: autor, revisor e aprovador precisam estar registrados nele (docs/CHECAGENS.md)"
        )
        return Registro(), [regras.Problema(EDITORES, "", ausente)]
    except (OSError, UnicodeDecodeError) as exc:
        return Registro(), [regras.Problema(EDITORES, "", f"não foi possível ler o registro: {exc}")]
    registro, problemas = ler_registro(texto)
    return registro, [regras.Problema(EDITORES, campo, mensagem) for campo, mensagem in problemas]


def _ler(arquivo: _Arquivo) -> tuple[str, Fonte] | regras.Problema:
    if arquivo.path.is_symlink():  # never followed: it may point outside the project
        return regras.Problema(arquivo.rel, "", regras.LINK_SIMBOLICO)
    if arquivo.path.name.startswith("."):
        return regras.Problema(arquivo.rel, "", regras.OCULTO)
    try:
        if (tamanho := arquivo.path.stat().st_size) > 4 * MAX_ARQUIVO:  # more characters than allowed
            return regras.Problema(arquivo.rel, "", regras.grande_demais(tamanho))
        data = arquivo.path.read_bytes()
    except OSError as exc:
        return regras.Problema(arquivo.rel, "", f"não foi possível ler o arquivo: {exc.strerror or exc}")
    try:
        texto = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        problema = f"o arquivo não está em UTF-8 (byte inválido na posição {exc.start}); salve-o em UTF-8"
        return regras.Problema(arquivo.rel, "", problema)
    return texto, Fonte(arquivo.rel, "")


def validar(
    raiz: Path, caminhos: Sequence[Path] = (), base: str | None = None, agora: dt.datetime | None = None
) -> Resultado:
    """Apply every rule to `caminhos` (default: all checks, candidates and the editors' registry
    of the project at `raiz`).

    `base` is the git revision the correction policy compares with (None: HEAD, and no git
    repository is only a warning). Dates after `agora` (default: now) are refused. Raises
    UsageError for a missing path or an unknown `base`.
    """
    resultado = Resultado()
    agora = agora or dt.datetime.now(dt.UTC)
    projeto = _pasta(raiz, PASTA_CANDIDATOS, ".toml") + _pasta(raiz, PASTA_CHECAGENS, ".md")
    alvos = _alvos(raiz, caminhos) if caminhos else projeto
    nomes_alvo = {a.rel for a in alvos} | (set() if caminhos else {EDITORES})
    editores, problemas_editores = ler_editores(raiz)
    # Cross-file rules need every file of the project, plus targets outside it.
    todos = {a.rel: a for a in projeto}
    todos |= {a.rel: a for a in alvos if a.rel not in todos}  # after the project's: duplicates name them
    candidatos: dict[str, Candidato] = {}
    checagens: list[Checagem] = []
    textos: dict[str, str] = {}
    problemas: list[regras.Problema] = list(problemas_editores)
    renderer = MarkdownRenderer()  # one converter for every body (building one is slow)
    enderecos: dict[str, list[str]] = {}  # each body's link addresses, as the content rules read them
    publicaveis: list[Checagem] = []
    for rel, arquivo in todos.items():
        if rel == EDITORES:
            continue  # read above: every check needs it
        lido = _ler(arquivo)
        if isinstance(lido, regras.Problema):
            problemas.append(lido)
            continue
        texto, fonte = lido
        if rel.endswith(".toml"):
            candidato_lido = regras.ler_candidato(texto, fonte)
            problemas += candidato_lido.problemas
            if candidato_lido.candidato is not None:
                candidatos[candidato_lido.candidato.id] = candidato_lido.candidato
            continue
        textos[rel] = texto
        lidos = enderecos.setdefault(rel, [])

        def ler_enderecos(corpo: str, lidos: list[str] = lidos) -> list[str]:
            lidos[:] = renderer.addresses(corpo)
            return lidos

        checagem_lida = regras.ler_checagem(texto, fonte, editores, agora, ler_enderecos)
        if regras.lida_publicavel(checagem_lida) and checagem_lida.checagem is not None:
            publicaveis.append(checagem_lida.checagem)
        problemas += checagem_lida.problemas
        problemas += checagem_lida.aprovacao
        if checagem_lida.checagem is not None:
            checagem = checagem_lida.checagem
            checagens.append(checagem)
            if checagem.status != "rascunho":
                problemas += regras.localizar(regras.copias_ausentes(str(raiz), checagem), textos)
    conjunto = regras.regras_do_conjunto(checagens, candidatos, espelhar=True)
    problemas += [*regras.localizar([p for p in conjunto if p.campo == "candidato"], textos)]
    problemas += [p for p in conjunto if p.campo != "candidato"]
    recusadas = {p.arquivo for p in conjunto}
    saidas = links_site.paginas(
        raiz, [c for c in publicaveis if c.fonte.caminho not in recusadas], candidatos
    )
    for rel in sorted(enderecos.keys() & nomes_alvo):
        problemas += links_site.quebrados(rel, textos[rel], enderecos[rel], saidas)
    alvos_texto = {r: t for r, t in textos.items() if r in nomes_alvo}
    commit = _commit_base(raiz, base, resultado) if alvos_texto or not caminhos else None
    rev = base or "HEAD"
    if commit is not None:
        problemas += _correcoes(raiz, commit, rev, alvos_texto)
    resultado.problemas = [p for p in problemas if p.arquivo in nomes_alvo]
    proibidas = regras.entradas_proibidas(str(raiz))
    if not caminhos:
        resultado.problemas += [p for p in proibidas if p not in resultado.problemas]
    if commit is not None and not caminhos:
        resultado.problemas += _apagadas(raiz, commit, rev, checagens)
    resultado.checagens = sum(1 for a in alvos if a.rel.endswith(".md"))
    resultado.candidatos = sum(1 for a in alvos if a.rel.endswith(".toml"))
    return resultado


def _commit_base(raiz: Path, base: str | None, resultado: Resultado) -> str | None:
    """The commit to compare with, or None when there is none (with a warning if it matters)."""
    if not historico_git.e_repositorio(raiz):
        if base is not None:
            raise UsageError(f"--base {base}: {raiz} não é um repositório git")
        resultado.avisos.append(
            "a pasta não é um repositório git: a regra de correções (comparar com a versão anterior) "
            "não foi verificada"
        )
        return None
    commit = historico_git.revisao(raiz, base or "HEAD")
    if commit is None and base is not None:
        raise UsageError(f"--base {base}: revisão desconhecida no repositório git")
    return commit  # None: a repository without commits, where every check is new


def _correcoes(raiz: Path, commit: str, rev: str, textos: dict[str, str]) -> list[regras.Problema]:
    """The correction policy for each check against its version at `commit` (found by id if the
    file was renamed)."""
    problemas: list[regras.Problema] = []
    for rel, texto in sorted(textos.items()):
        atual = regras.versao(texto, rel)
        if atual is None:
            continue  # unreadable now: its own problems are already reported
        anterior_bytes = historico_git.conteudo(raiz, commit, rel)
        if anterior_bytes is None:
            identificador = regras.identificador(texto)
            antigo = identificador and historico_git.por_id(raiz, commit, PASTA_CHECAGENS, identificador)
            anterior_bytes = historico_git.conteudo(raiz, commit, antigo) if antigo else None
        if anterior_bytes is None:
            continue  # a new check
        anterior = regras.versao(anterior_bytes.decode("utf-8", "replace"), rel)
        if anterior is not None:
            problemas += regras.regra_correcao_publica(anterior, atual, rel, rev)
    return problemas


def _apagadas(raiz: Path, commit: str, rev: str, checagens: list[Checagem]) -> list[regras.Problema]:
    """Published checks present at `commit` and gone now (seed: "esconder o erro, não")."""
    atuais = {c.fonte.caminho for c in checagens}
    ids = {c.id for c in checagens}
    problemas = []
    for rel in historico_git.arquivos(raiz, commit, PASTA_CHECAGENS):
        if rel in atuais or not rel.endswith(".md"):
            continue
        data = historico_git.conteudo(raiz, commit, rel)
        if data is None:
            continue
        texto = data.decode("utf-8", "replace")
        anterior = regras.versao(texto, rel)
        if anterior is None or anterior.status != "publicada" or regras.identificador(texto) in ids:
            continue
        problemas.append(
            regras.Problema(
                rel,
                "",
                f"a checagem estava publicada em {rev} e foi apagada; uma checagem publicada não sai do ar: "
                "restaure o arquivo e publique uma correção",
            )
        )
    return problemas


def imprimir(resultado: Resultado) -> int:
    """Print the problems (stdout), warnings and a summary (stderr) in Portuguese; return the exit status."""
    for aviso in resultado.avisos:
        print(f"aviso: {aviso}", file=sys.stderr)
    for problema in resultado.problemas:
        print(problema)
    print(resumo(resultado), file=sys.stderr)
    return 1 if resultado.problemas else 0


def resumo(resultado: Resultado) -> str:
    """The summary line of `validar`, every count agreeing with its noun ("1 checagem", "2 problemas")."""
    arquivos = (
        f"verificados: {plural(resultado.checagens, 'checagem', 'checagens')} e "
        f"{plural(resultado.candidatos, 'candidato', 'candidatos')}"
    )
    if not resultado.problemas:
        return f"tudo certo; {arquivos}"
    afetados = len({p.arquivo for p in resultado.problemas})
    return (
        f"{plural(len(resultado.problemas), 'problema', 'problemas')} em "
        f"{plural(afetados, 'arquivo', 'arquivos')} ({arquivos})"
    )


def run(args: argparse.Namespace) -> int:
    """`eleicoes checagens validar`: exit 0 when every rule holds, 1 on any problem, 2 on bad usage."""
    raiz: Path = args.raiz or Path.cwd()
    try:
        resultado = validar(raiz, args.caminhos, args.base)
    except (UsageError, historico_git.GitError) as exc:
        print(f"erro: {exc}", file=sys.stderr)
        return 2
    return imprimir(resultado)
