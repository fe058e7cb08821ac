"""Editor overrides (`edicoes.toml`): speaker corrections, the question in force, hidden or corrected
checks, the end of the debate. Editor decisions always win over the machine.

Written only by `eleicoes debate editar` (atomically, validated first); read by every cycle.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from jobs.debate.armazenamento import ARQ_EDICOES, PAPEIS, TEXTO_MAX, ErroDebate, gravar_bytes, ler_toml

VEREDITOS = ("verdadeiro", "impreciso", "enganoso", "falso", "sem_dados")
CONFIANCAS = ("alta", "baixa")


@dataclass(frozen=True)
class EdicaoLocutor:
    """The editor's identification of a speaker label."""

    papel: str
    nome: str
    candidato: str = ""


@dataclass(frozen=True)
class EdicaoPergunta:
    """The question the editor marks in force for a turn (text, an utterance, or none)."""

    texto: str = ""
    fala: str = ""
    nenhuma: bool = False


@dataclass(frozen=True)
class Fonte:
    """A source the editor lists for a check."""

    titulo: str
    url: str


@dataclass(frozen=True)
class EdicaoChecagem:
    """What the editor changed in a check; None means "as the machine left it"."""

    oculta: bool | None = None
    veredito: str | None = None
    confianca: str | None = None
    explicacao: str | None = None
    fontes: tuple[Fonte, ...] | None = None
    motivo: str = ""

    @property
    def corrige(self) -> bool:
        """True when the editor corrected the content (not only hid or showed it)."""
        return any(v is not None for v in (self.veredito, self.confianca, self.explicacao, self.fontes))


@dataclass(frozen=True)
class EdicaoTranscricao:
    """The editor's reading of a turn held for its transcript: confirmed as is, or corrected text."""

    texto: str = ""  # "" = the machine transcript is right (confirmed)


@dataclass(frozen=True)
class Edicoes:
    """All editor overrides of one debate."""

    encerrado: bool | None = None
    locutores: dict[str, EdicaoLocutor] = field(default_factory=dict)
    falas: dict[str, str] = field(default_factory=dict)  # utterance id -> speaker label
    perguntas: dict[str, EdicaoPergunta] = field(default_factory=dict)  # turn id -> question
    checagens: dict[str, EdicaoChecagem] = field(default_factory=dict)  # check id -> correction
    transcricoes: dict[str, EdicaoTranscricao] = field(default_factory=dict)  # turn id -> confirmed/corrected
    registro: tuple[str, ...] = ()  # "when who what", newest last, for the audit trail

    def assinatura(self) -> str:
        """A stable text of the overrides that matter to the computation (for cache keys)."""
        return json.dumps(
            [
                self.encerrado,
                sorted((k, v.papel, v.nome, v.candidato) for k, v in self.locutores.items()),
                sorted(self.falas.items()),
                sorted((k, v.texto, v.fala, v.nenhuma) for k, v in self.perguntas.items()),
            ],
            ensure_ascii=False,
        )


def _str(obj: dict[str, Any], chave: str, onde: str) -> str:
    valor = obj.get(chave, "")
    if not isinstance(valor, str):
        raise ErroDebate(f"{onde}: {chave}: deve ser um texto")
    return valor.strip()


def _tabela(valor: Any, onde: str) -> dict[str, Any]:
    if not isinstance(valor, dict):
        raise ErroDebate(f"{onde}: deve ser uma tabela")
    return valor


def validar_locutor(e: EdicaoLocutor, candidatos: set[str] | None, onde: str) -> None:
    """Raise ErroDebate when a speaker correction names a role or candidate that does not exist."""
    if e.papel not in PAPEIS:
        raise ErroDebate(f"{onde}: papel: '{e.papel}' não existe (use {', '.join(PAPEIS)})")
    if e.papel == "candidato" and not e.candidato:
        raise ErroDebate(f"{onde}: candidato: obrigatório quando o papel é candidato")
    if e.papel != "candidato" and e.candidato:
        raise ErroDebate(f"{onde}: candidato: só se preenche quando o papel é candidato")
    if candidatos is not None and e.candidato and e.candidato not in candidatos:
        raise ErroDebate(f"{onde}: candidato: '{e.candidato}' não participa deste debate")


def validar_checagem(e: EdicaoChecagem, onde: str) -> None:
    """Raise ErroDebate when a check correction has a verdict or confidence outside the scale."""
    if e.veredito is not None and e.veredito not in VEREDITOS:
        raise ErroDebate(f"{onde}: veredito: '{e.veredito}' não existe (use {', '.join(VEREDITOS)})")
    if e.confianca is not None and e.confianca not in CONFIANCAS:
        raise ErroDebate(f"{onde}: confianca: use 'alta' ou 'baixa'")
    for f in e.fontes or ():
        if not f.url.startswith(("http://", "https://", "/")):
            raise ErroDebate(f"{onde}: fontes: endereço inválido '{f.url}' (use http://, https:// ou /)")


def ler_edicoes(pasta: Path, candidatos: set[str] | None = None) -> Edicoes:
    """Read and validate `edicoes.toml` (absent file: no overrides)."""
    caminho = pasta / ARQ_EDICOES
    if not caminho.exists():
        return Edicoes()
    dados = ler_toml(caminho)
    onde = str(caminho)
    encerrado = dados.get("encerrado")
    if encerrado is not None and not isinstance(encerrado, bool):
        raise ErroDebate(f"{onde}: encerrado: deve ser true ou false")
    locutores = {}
    for rotulo, v in _tabela(dados.get("locutores", {}), f"{onde}: locutores").items():
        w = f"{onde}: locutores.{rotulo}"
        t = _tabela(v, w)
        loc = EdicaoLocutor(_str(t, "papel", w), _str(t, "nome", w) or rotulo, _str(t, "candidato", w))
        validar_locutor(loc, candidatos, w)
        locutores[rotulo] = loc
    falas = {}
    for fala_id, v in _tabela(dados.get("falas", {}), f"{onde}: falas").items():
        w = f"{onde}: falas.{fala_id}"
        locutor = _str(_tabela(v, w), "locutor", w)
        if not locutor:
            raise ErroDebate(f"{w}: locutor: obrigatório")
        falas[fala_id] = locutor
    perguntas = {}
    for turno, v in _tabela(dados.get("perguntas", {}), f"{onde}: perguntas").items():
        w = f"{onde}: perguntas.{turno}"
        t = _tabela(v, w)
        nenhuma = t.get("nenhuma", False)
        if not isinstance(nenhuma, bool):
            raise ErroDebate(f"{w}: nenhuma: deve ser true ou false")
        p = EdicaoPergunta(_str(t, "texto", w), _str(t, "fala", w), nenhuma)
        if sum((bool(p.texto), bool(p.fala), p.nenhuma)) != 1:
            raise ErroDebate(f"{w}: informe exatamente um de texto, fala ou nenhuma = true")
        perguntas[turno] = p
    checagens = {}
    for cid, v in _tabela(dados.get("checagens", {}), f"{onde}: checagens").items():
        w = f"{onde}: checagens.{cid}"
        t = _tabela(v, w)
        oculta = t.get("oculta")
        if oculta is not None and not isinstance(oculta, bool):
            raise ErroDebate(f"{w}: oculta: deve ser true ou false")
        fontes = None
        if "fontes" in t:
            brutas = t["fontes"]
            if not isinstance(brutas, list):
                raise ErroDebate(f"{w}: fontes: deve ser uma lista de {{ titulo, url }}")
            fontes = tuple(
                Fonte(_str(_tabela(f, w), "titulo", w), _str(_tabela(f, w), "url", w)) for f in brutas
            )
        e = EdicaoChecagem(
            oculta=oculta,
            veredito=_str(t, "veredito", w) or None,
            confianca=_str(t, "confianca", w) or None,
            explicacao=_str(t, "explicacao", w) or None,
            fontes=fontes,
            motivo=_str(t, "motivo", w),
        )
        validar_checagem(e, w)
        checagens[cid] = e
    transcricoes = {}
    for turno, v in _tabela(dados.get("transcricoes", {}), f"{onde}: transcricoes").items():
        w = f"{onde}: transcricoes.{turno}"
        t = _tabela(v, w)
        confirmada = t.get("confirmada", False)
        if not isinstance(confirmada, bool):
            raise ErroDebate(f"{w}: confirmada: deve ser true ou false")
        texto = _str(t, "texto", w)
        if confirmada == bool(texto):
            raise ErroDebate(f"{w}: informe exatamente um de confirmada = true ou texto")
        if len(texto) > TEXTO_MAX:
            raise ErroDebate(f"{w}: texto: mais de {TEXTO_MAX} caracteres")
        transcricoes[turno] = EdicaoTranscricao(texto)
    registro = dados.get("registro", [])
    if not isinstance(registro, list) or not all(isinstance(r, str) for r in registro):
        raise ErroDebate(f"{onde}: registro: deve ser uma lista de textos")
    return Edicoes(encerrado, locutores, falas, perguntas, checagens, transcricoes, tuple(registro))


# ---------------------------------------------------------------- writing

_CHAVE_NUA = re.compile(r"^[A-Za-z0-9_-]+$")


def _k(chave: str) -> str:
    return chave if _CHAVE_NUA.match(chave) else json.dumps(chave, ensure_ascii=False)


def _s(valor: str) -> str:
    # JSON string escapes (\" \\ \n \uXXXX) are valid TOML basic strings.
    return json.dumps(valor, ensure_ascii=False)


def para_toml(e: Edicoes) -> str:
    """The overrides as TOML text (stable order)."""
    linhas = [
        "# Correções do editor para este debate, gravadas por `eleicoes debate editar`.",
        "# A decisão do editor sempre vale sobre a da máquina; o próximo ciclo aplica e recalcula o placar.",
        "",
    ]
    if e.encerrado is not None:
        linhas += [f"encerrado = {'true' if e.encerrado else 'false'}", ""]
    linhas.append("registro = [" + ", ".join(_s(r) for r in e.registro) + "]")
    linhas.append("")
    for rotulo, loc in sorted(e.locutores.items()):
        linhas += [f"[locutores.{_k(rotulo)}]", f"papel = {_s(loc.papel)}", f"nome = {_s(loc.nome)}"]
        if loc.candidato:
            linhas.append(f"candidato = {_s(loc.candidato)}")
        linhas.append("")
    for fala_id, locutor in sorted(e.falas.items()):
        linhas += [f"[falas.{_k(fala_id)}]", f"locutor = {_s(locutor)}", ""]
    for turno, p in sorted(e.perguntas.items()):
        linhas.append(f"[perguntas.{_k(turno)}]")
        if p.texto:
            linhas.append(f"texto = {_s(p.texto)}")
        if p.fala:
            linhas.append(f"fala = {_s(p.fala)}")
        if p.nenhuma:
            linhas.append("nenhuma = true")
        linhas.append("")
    for cid, c in sorted(e.checagens.items()):
        linhas.append(f"[checagens.{_k(cid)}]")
        if c.oculta is not None:
            linhas.append(f"oculta = {'true' if c.oculta else 'false'}")
        for nome in ("veredito", "confianca", "explicacao"):
            valor = getattr(c, nome)
            if valor is not None:
                linhas.append(f"{nome} = {_s(valor)}")
        if c.fontes is not None:
            itens = ", ".join(f"{{ titulo = {_s(f.titulo)}, url = {_s(f.url)} }}" for f in c.fontes)
            linhas.append(f"fontes = [{itens}]")
        if c.motivo:
            linhas.append(f"motivo = {_s(c.motivo)}")
        linhas.append("")
    for turno, t in sorted(e.transcricoes.items()):
        linhas.append(f"[transcricoes.{_k(turno)}]")
        linhas.append(f"texto = {_s(t.texto)}" if t.texto else "confirmada = true")
        linhas.append("")
    return "\n".join(linhas).rstrip() + "\n"


def gravar_edicoes(pasta: Path, e: Edicoes, descricao: str, editor: str = "") -> Edicoes:
    """Append an entry to the audit trail and write `edicoes.toml` atomically; returns what was saved."""
    agora = dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")
    quem = f" ({editor})" if editor else ""
    salvo = replace(e, registro=(*e.registro, f"{agora}{quem}: {descricao}"))
    texto = para_toml(salvo)
    # Written only once it parses back: a bad edit never replaces a good file.
    try:
        tomllib.loads(texto)
    except tomllib.TOMLDecodeError as exc:  # pragma: no cover - the writer only emits valid TOML
        raise ErroDebate(f"edição não gravada: TOML gerado inválido ({exc})") from exc
    gravar_bytes(pasta / ARQ_EDICOES, texto.encode("utf-8"))
    return salvo
