"""The registry of the fact-check desk's editors (`content/editores.toml`) and identity by id.

The two-person rule compares people, not strings: author, reviewer and approver are written as
registered ids, and names on the pages come from the registry. Every name, alias, id and GitHub
handle of the registry is reduced to a comparison key (NFKC, case folded, accents, invisible
characters, punctuation and every kind of space removed), and two editors whose keys meet are an
error: one person cannot be registered, or written, as two. A name mixing alphabets (a Cyrillic
"а" in a Latin name) is refused too.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from site_builder.conteudo.frontmatter import ler_toml, normalizar_linhas
from site_builder.conteudo.texto_seguro import html_bruto
from site_builder.errors import ContentError

ARQUIVO = "content/editores.toml"
CAMPOS = frozenset({"id", "nome", "github", "apelidos"})
ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
GITHUB = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$")  # GitHub's own rule
MAX_NOME = 120


@dataclass(frozen=True)
class Editor:
    """One person of the desk."""

    id: str
    nome: str  # as readers see it
    github: str  # the account that approves pull requests
    apelidos: tuple[str, ...] = ()


@dataclass
class Registro:
    """Every editor by id, and the comparison key of each of their names to their id."""

    editores: dict[str, Editor] = field(default_factory=dict)
    chaves: dict[str, str] = field(default_factory=dict)

    def nome(self, identificador: str) -> str:
        """The name readers see for an id (the id itself when it is not registered)."""
        editor = self.editores.get(identificador)
        return editor.nome if editor else identificador

    def por_github(self, conta: str) -> Editor | None:
        """The editor whose GitHub handle is `conta` (GitHub handles ignore case)."""
        alvo = conta.casefold()
        return next((e for e in self.editores.values() if e.github.casefold() == alvo), None)


def chave(texto: str) -> str:
    """Comparison key of a name: what is left when everything that can make one person look like
    two is taken away (compatibility forms, case, accents, invisible characters, spaces, punctuation)."""
    decomposto = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", texto).casefold())
    partes: list[str] = []
    for ch in decomposto:
        categoria = unicodedata.category(ch)
        if categoria.startswith(("L", "N")):
            partes.append(ch)
        elif categoria in ("Mn", "Me", "Cf", "Cc"):
            continue  # accents, joiners, bidi controls: they do not tell people apart
        else:
            partes.append(" ")  # spaces of every kind, hyphens, dots, underscores
    return " ".join("".join(partes).split())


def _alfabetos(texto: str) -> set[str]:
    """The scripts of the letters of `texto` (first word of each Unicode letter name)."""
    return {unicodedata.name(ch, "?").split()[0] for ch in texto if ch.isalpha()}


def problema_de_nome(texto: str) -> str | None:
    """Why a registered name or alias cannot identify a person, or None."""
    if not chave(texto):
        return "não pode ficar vazio"
    if problema := html_bruto(texto):
        return problema
    if len(texto) > MAX_NOME:
        return f"tem {len(texto)} caracteres; o limite é {MAX_NOME}"
    alfabetos = _alfabetos(texto)
    if len(alfabetos) > 1:
        return (
            f"mistura alfabetos ({', '.join(sorted(alfabetos))}): letras de outro alfabeto imitam "
            "as latinas; escreva o nome com um só"
        )
    if unicodedata.normalize("NFKC", texto) != texto or any(unicodedata.category(c) == "Cf" for c in texto):
        return "contém caracteres invisíveis ou de forma especial; digite o nome de novo"
    return None


def ler_registro(texto: str) -> tuple[Registro, list[tuple[str, str]]]:
    """The registry from the text of `content/editores.toml`, and its problems as (field, message)."""
    registro = Registro()
    problemas: list[tuple[str, str]] = []
    try:
        dados = ler_toml(normalizar_linhas(texto), ARQUIVO)
    except tomllib.TOMLDecodeError as exc:
        return registro, [("", f"TOML inválido: {exc}")]
    except ContentError as exc:
        return registro, [("", f"{exc.line}: {exc.problem}" if exc.line else exc.problem)]
    for chave_extra in sorted(set(dados) - {"editores"}):
        problemas.append((chave_extra, "campo desconhecido (use blocos [[editores]])"))
    lista = dados.get("editores", [])
    if not isinstance(lista, list) or not all(isinstance(item, dict) for item in lista):
        return registro, [*problemas, ("editores", "use blocos [[editores]], um por pessoa")]
    donos: dict[str, tuple[str, str]] = {}  # key -> (editor id, field that gave it)
    for posicao, item in enumerate(lista, start=1):
        campo = f"editores[{posicao}]"
        editor, erros = _editor(item, campo)
        problemas += erros
        if editor is None:
            continue
        if editor.id in registro.editores:
            problemas.append((f"{campo}.id", f"'{editor.id}' já está registrado"))
            continue
        nomes = [("id", editor.id), ("nome", editor.nome), ("github", editor.github)]
        nomes += [(f"apelidos[{i}]", a) for i, a in enumerate(editor.apelidos, start=1)]
        for nome_campo, valor in nomes:
            k = chave(valor)
            dono = donos.get(k)
            if dono is not None and dono[0] != editor.id:
                problemas.append(
                    (
                        f"{campo}.{nome_campo}",
                        f"'{valor}' se confunde com {dono[1]} de '{dono[0]}': "
                        "duas pessoas do registro precisam de nomes que não se confundam",
                    )
                )
            donos.setdefault(k, (editor.id, nome_campo))
        registro.editores[editor.id] = editor
    registro.chaves = {k: dono for k, (dono, _) in donos.items()}
    return registro, problemas


def _editor(item: dict[str, Any], campo: str) -> tuple[Editor | None, list[tuple[str, str]]]:
    problemas = [(f"{campo}.{k}", "campo desconhecido") for k in sorted(set(item) - CAMPOS)]
    valores: dict[str, str] = {}
    for nome in ("id", "nome", "github"):
        valor = item.get(nome)
        if not isinstance(valor, str) or not valor.strip():
            problemas.append((f"{campo}.{nome}", "campo obrigatório: um texto entre aspas"))
            continue
        valores[nome] = valor
    apelidos = item.get("apelidos", [])
    if not isinstance(apelidos, list) or not all(isinstance(a, str) for a in apelidos):
        problemas.append((f"{campo}.apelidos", 'use uma lista de textos: apelidos = ["..."]'))
        apelidos = []
    if "id" in valores and not ID.match(valores["id"]):
        problemas.append((f"{campo}.id", "use apenas letras minúsculas sem acento, números e '-'"))
    if "github" in valores and not GITHUB.match(valores["github"]):
        problemas.append((f"{campo}.github", "conta do GitHub inválida (letras, números e '-', até 39)"))
    for nome, valor in [
        ("nome", valores.get("nome", "x")),
        *((f"apelidos[{i}]", a) for i, a in enumerate(apelidos, 1)),
    ]:
        if problema := problema_de_nome(valor):
            problemas.append((f"{campo}.{nome}", problema))
    if problemas:
        return None, problemas
    return Editor(valores["id"], valores["nome"], valores["github"], tuple(apelidos)), []


def identificar(registro: Registro, valor: str) -> tuple[str, str | None]:
    """(editor id, None) when `valor` is a registered id; else ("", why), naming the id to use
    when `valor` is another way of writing a registered person."""
    if valor in registro.editores:
        return valor, None
    dono = registro.chaves.get(chave(valor))
    if dono is not None:
        return "", f"'{valor}' é outra forma de escrever '{dono}': use o id do registro de editores"
    return "", f"'{valor}' não está no registro de editores ({ARQUIVO})"
