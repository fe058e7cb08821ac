"""Debate pages (issue 7): one page per debate from `data/debates/<id>/`, plus the section listing.

Phase 1 (`collect`) reads each debate's stored stages (turns, questions, evaluations, reviewed
checks, scoreboard, page data) into a typed record; phase 2 (`plan`) turns them into artifacts.
Nothing here computes: the pages show what the engine stored, formatted. Headlines, scoreboard
columns, per-turn weights and scores, proposal points and verdict labels come from `pagina.json`
(written by `jobs/debate/pagina.py`), evasion bands from `avaliacao.json`.

A debate whose files cannot be read is skipped with a warning (the build goes on); a debate the
engine has not processed yet (no `placar.json`) is listed as waiting.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from site_builder import ao_vivo, cores, jsonld, share_image
from site_builder.artifact import Artifact, raw, w3c
from site_builder.br_format import data_hora, iso_utc, plural
from site_builder.conteudo.frontmatter import aninhamento_excessivo
from site_builder.conteudo.registros import Fonte
from site_builder.reader import Reader, fingerprint

if TYPE_CHECKING:
    from site_builder.records import SiteContext

__all__ = ["DebatePagina", "collect", "plan", "section_context", "section_keys"]

T = TypeVar("T")
PASTA = "data/debates"
SECAO_URL = "/debates/"
METODO_URL = "/metodologia/debates/"
HISTORICO_URL = "/metodologia/historico-do-metodo/"
# The listing's notice (each debate page says which backend produced its notes and checks).
AVISO_IA = (
    "Transcrição, notas e checagens dos debates são automáticas e podem conter erros: cada página diz "
    "quem as produziu (análise por regras ou o modelo de linguagem usado). Cada veredito mostra as "
    "fontes para você conferir."
)
ESTAGIOS = (
    "placar.json",
    "placar-entrada.json",
    "turnos.json",
    "perguntas.json",
    "avaliacao.json",
    "checagens-revisadas.json",
    "estado.json",
    "papeis.json",
    "pagina.json",
)
OPCIONAIS = ("placar-v1.json", "placar-v1-entrada.json")
MESES = (
    "janeiro", "fevereiro", "março", "abril", "maio", "junho",
    "julho", "agosto", "setembro", "outubro", "novembro", "dezembro",
)  # fmt: skip


@dataclass(frozen=True)
class DebatePagina:
    """One debate as its page shows it (the stored stages, read as JSON)."""

    id: str
    titulo: str
    data: dt.date
    emissora: str
    demonstracao: bool
    fontes: tuple[Fonte, ...]
    etapas: Mapping[str, Any]  # stage file name -> parsed JSON (absent when not produced yet)
    placar_bytes: bytes = b""  # `placar.json` as stored, republished byte for byte

    @property
    def url(self) -> str:
        """Root-relative URL of the debate page."""
        return f"{SECAO_URL}{self.id}/"

    @property
    def processado(self) -> bool:
        """True once the engine stored a scoreboard."""
        return "placar.json" in self.etapas

    @property
    def leituras(self) -> tuple[str, ...]:
        """Methods the page shows (v2, and v1 for debates before 18 Oct 2026); none before the first cycle."""
        return (
            tuple(leitura["metodo"] for leitura in self.etapas["pagina.json"]["leituras"])
            if self.processado
            else ()
        )


# --- phase 1: reading ------------------------------------------------------------------------


def _ler(reader: Reader, rel: str, parse: Callable[[bytes], T]) -> tuple[T, Fonte] | None:
    """A source through the build cache; `parse` must not raise. None when it cannot be read."""
    full = f"{reader.root}/{rel}"
    try:
        digest, data, cached = reader.cache.read(full, rel)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        reader.avisos.append(f"{rel}: não foi possível ler o arquivo ({exc.strerror or exc})")
        return None
    fonte = Fonte(rel, digest)
    reader.fontes.append(fonte)
    if cached is not None:
        return cached.parsed, fonte
    assert data is not None
    parsed = parse(data)
    with contextlib.suppress(OSError):
        reader.cache.store(full, rel, digest, parsed)
    return parsed, fonte


def _json(data: bytes) -> Any:
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        return ValueError(f"JSON inválido ({exc})")


def _json_e_bytes(data: bytes) -> Any:
    dados = _json(data)
    return dados if isinstance(dados, ValueError) else (dados, data)


def _toml(data: bytes) -> Any:
    try:
        return tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        return ValueError(f"TOML inválido ({exc})")
    except RecursionError:  # tomllib recurses once per level of nested lists and tables
        return ValueError(f"TOML inválido ({aninhamento_excessivo()})")


def _debate(reader: Reader, nome: str) -> DebatePagina | None:
    base = f"{PASTA}/{nome}"
    lido = _ler(reader, f"{base}/debate.toml", _toml)
    if lido is None:
        return None
    meta, fonte = lido
    if isinstance(meta, ValueError):
        reader.avisos.append(f"{base}/debate.toml: {meta}; debate não publicado")
        return None
    data = meta.get("data")
    if isinstance(data, dt.datetime):
        data = data.date()
    if not isinstance(data, dt.date) or not isinstance(meta.get("titulo"), str):
        reader.avisos.append(
            f"{base}/debate.toml: titulo e data (AAAA-MM-DD) são obrigatórios; debate não publicado"
        )
        return None
    fontes = [fonte]
    etapas: dict[str, Any] = {}
    placar_bytes = b""
    for arquivo in ESTAGIOS + OPCIONAIS:
        lido_etapa = _ler(reader, f"{base}/{arquivo}", _json_e_bytes if arquivo == "placar.json" else _json)
        if lido_etapa is None:
            continue
        dados, fonte_etapa = lido_etapa
        if isinstance(dados, ValueError):
            reader.avisos.append(f"{base}/{arquivo}: {dados}; debate não publicado até o próximo ciclo")
            return None
        if arquivo == "placar.json":
            dados, placar_bytes = dados
        etapas[arquivo] = dados
        fontes.append(fonte_etapa)
    if "placar.json" in etapas and not all(a in etapas for a in ESTAGIOS):
        faltam = ", ".join(a for a in ESTAGIOS if a not in etapas)
        reader.avisos.append(f"{base}: faltam {faltam}; debate não publicado até o próximo ciclo")
        return None
    if "placar.json" in etapas and (problema := _desencontro(etapas)):
        reader.avisos.append(f"{base}/pagina.json: {problema}; debate não publicado até o próximo ciclo")
        return None
    return DebatePagina(
        id=nome,
        titulo=meta["titulo"],
        data=data,
        emissora=str(meta.get("emissora", "")),
        demonstracao=bool(meta.get("demonstracao", False)),
        fontes=tuple(fontes),
        etapas=etapas,
        placar_bytes=placar_bytes,
    )


def _desencontro(etapas: Mapping[str, Any]) -> str | None:
    """Why `pagina.json` does not match the turns and evaluations beside it (files of two cycles,
    read while the engine was writing), or None."""
    calculados = etapas["pagina.json"].get("turnos", {})
    avaliacoes = etapas["avaliacao.json"].get("turnos", {})
    for t in etapas["turnos.json"]["turnos"]:
        calculado = calculados.get(t["id"])
        avaliacao = avaliacoes.get(t["id"], {}).get("avaliacao") or {}
        propostas = len(avaliacao.get("propostas", []))
        if (
            calculado is None
            or len(calculado["pontos_propostas"]) != propostas
            or len(calculado.get("propostas_em_revisao", [""] * propostas)) != propostas
        ):
            return f"os dados do turno {t['id']} não conferem com turnos.json e avaliacao.json"
    return None


def collect(reader: Reader) -> tuple[DebatePagina, ...]:
    """The debates stored under `data/debates/`, newest first."""
    try:
        with os.scandir(f"{reader.root}/{PASTA}") as it:
            nomes = sorted(e.name for e in it if e.is_dir() and not e.name.startswith("."))
    except (FileNotFoundError, NotADirectoryError):
        return ()
    debates = [d for nome in nomes if (d := _debate(reader, nome)) is not None]
    debates.sort(key=lambda d: (d.data, d.id), reverse=True)
    return tuple(debates)


# --- phase 2: views ----------------------------------------------------------------------------


def _data(d: dt.date) -> str:
    return f"{d.day} de {MESES[d.month - 1]} de {d.year}"


def _tempo(segundos: float) -> str:
    total = round(segundos)
    return f"{total // 60}:{total % 60:02d}"


def _numero(valor: float | None, casas: int = 1) -> str:
    if valor is None:
        return "sem dados"
    return f"{valor:.{casas}f}".replace(".", ",")


def _tabela(placar: Mapping[str, Any], leitura: Mapping[str, Any], cor: Mapping[str, str]) -> dict[str, Any]:
    colunas = leitura["colunas"]
    linhas = []
    for c in placar.get("candidatos", []):
        metricas = []
        for coluna in colunas:
            m = c["metricas"].get(coluna["metrica"], {})
            sem = bool(m.get("sem_dados"))
            metricas.append(
                {
                    "id": coluna["metrica"],
                    "nome": coluna["nome"],
                    "valores": (json.dumps(m.get("nota")), json.dumps(m.get("peso_efetivo"))),
                    "nota": _numero(m.get("nota")),
                    "sem_dados": sem,
                    "peso": _numero(m.get("peso_efetivo"), 0) + "%" if not sem else "fora da conta",
                }
            )
        linhas.append(
            {
                "id": c["id"],
                "nome": c["nome"],
                "cor": cor.get(c["id"]),  # the candidate file's colour, as on every page
                "nota": _numero(c.get("nota")) if c.get("nota") is not None else "sem nota",
                # the stored values, for the live page's script (json, as the browser reads them)
                "valores": {k: json.dumps(c.get(k)) for k in ("nota", "turnos_avaliados", "tempo_fala_s")},
                "metricas": metricas,
                "turnos": c.get("turnos_avaliados", 0),
                "tempo": _tempo(float(c.get("tempo_fala_s", 0))),
            }
        )
    return {
        "metodo": leitura["metodo"],
        "colunas": [{"nome": c["nome"], "peso_base": _numero(c["peso_base"], 0)} for c in colunas],
        "linhas": linhas,
    }


def _veredito(codigo: str, rotulos: Mapping[str, str]) -> dict[str, str]:
    return {"codigo": codigo, "rotulo": rotulos[codigo]}


def _checagem_view(
    r: Mapping[str, Any], rotulos: Mapping[str, str], autoria: str, em_revisao: str = ""
) -> dict[str, Any]:
    return {
        "produzido_por": autoria,
        "em_revisao": em_revisao,
        "id": r["id"],
        "afirmacao": r["afirmacao"],
        "veredito": _veredito(r["veredito"], rotulos),
        "confianca": r["confianca"],
        "explicacao": r["explicacao"],
        "fontes": r.get("fontes", []),
        "revisado": bool(r.get("revisado")),
        "motivo": r.get("motivo"),
        "antes": _veredito(r["veredito_original"], rotulos) if r.get("revisado") else None,
        "repeticao_de": r.get("repeticao_de"),
        "editada": bool(r.get("editada")),
        "nota_editor": r.get("nota_editor", ""),
        "checagem_publicada": r.get("checagem_publicada"),
    }


def _partes(a: Mapping[str, Any]) -> str:
    partes = a.get("partes") or []
    respondidas = sum(1 for p in partes if p.get("respondida"))
    return f"{plural(respondidas, 'parte respondida', 'partes respondidas')} de {len(partes)}"


def _turnos_view(d: DebatePagina, nomes: Mapping[str, str]) -> list[dict[str, Any]]:
    e = d.etapas
    perguntas = {p["turno"]: p for p in e["perguntas.json"]["perguntas"]}
    avaliacoes = {k: v["avaliacao"] for k, v in e["avaliacao.json"].get("turnos", {}).items()}
    pagina = e["pagina.json"]
    por_turno: dict[str, list[dict[str, Any]]] = {}
    for r in e["checagens-revisadas.json"]["checagens"]:
        if not r.get("oculta"):
            autoria = pagina.get("checagens", {}).get(r["id"], "")
            retida = pagina.get("checagens_em_revisao", {}).get(r["id"], "")
            por_turno.setdefault(r["turno"], []).append(
                _checagem_view(r, pagina["vereditos"], autoria, retida)
            )
    saida = []
    for t in e["turnos.json"]["turnos"]:
        p = perguntas.get(t["id"], {})
        a = avaliacoes.get(t["id"])
        calculado = pagina["turnos"][t["id"]]
        resposta = calculado["nota_resposta"]
        lista = (a or {}).get("propostas", [])
        # page data of an older engine has no item gate: nothing is shown as held
        retidas = calculado.get("propostas_em_revisao") or [""] * len(lista)
        propostas = [
            {**prop, "pontos": _numero(pontos, 0), "em_revisao": retida}
            for prop, pontos, retida in zip(lista, calculado["pontos_propostas"], retidas, strict=True)
        ]
        saida.append(
            {
                "id": t["id"],
                "candidato": nomes.get(t["candidato"], t["candidato"]),
                "inicio": _tempo(t["inicio_s"]),
                "fim": _tempo(t["fim_s"]),
                "duracao": _tempo(t["duracao_s"]),
                "peso": _numero(calculado["peso_s"], 0),
                "texto": t["texto"],
                "encerrado": t["encerrado"],
                "bloco": p.get("bloco", ""),
                "pergunta": p.get("texto"),
                "pergunta_autor": p.get("autor", ""),
                "pergunta_origem": p.get("origem", ""),
                "pergunta_motivo": p.get("motivo", ""),
                "pergunta_em_revisao": calculado.get("pergunta_em_revisao", ""),
                "ataque_em_revisao": calculado.get("ataque_em_revisao", ""),
                "avaliacao": a,
                "nota_resposta": None if resposta is None else _numero(resposta),
                "faixa": a.get("faixa_evasao") if a else None,
                "partes": _partes(a) if a else "",
                "avaliado_por": calculado.get("avaliado_por", ""),
                "em_revisao": calculado.get("em_revisao", False),
                "transcricao": calculado.get("transcricao", ""),
                "propostas": propostas,
                "checagens": por_turno.get(t["id"], []),
            }
        )
    return saida


def _ocultas(n: int) -> str:
    if n == 0:
        return ""
    if n == 1:
        return "1 checagem retirada pelo editor não aparece nem conta na nota."
    return f"{plural(n, 'checagem', 'checagens')} retiradas pelo editor não aparecem nem contam na nota."


def _revisadas(n: int) -> str:
    if n == 0:
        return ""
    marcados = "marcado" if n == 1 else "marcados"
    return (
        f"A revisão automática mudou {plural(n, 'veredito', 'vereditos')}, {marcados} com o selo “revisado”."
    )


def _contexto(d: DebatePagina, ctx: SiteContext) -> dict[str, Any]:
    trilha = [("Início", "/"), ("Debates", SECAO_URL), (d.titulo, d.url)]
    descricao = f"Placar, turnos e checagens do debate de {_data(d.data)}"
    base: dict[str, Any] = {
        "titulo": d.titulo,
        "descricao": descricao,
        "trilha": trilha,
        "jsonld": jsonld.webpage(ctx.config, d.url, d.titulo, descricao, trilha),
        "debate": d,
        "data_extenso": _data(d.data),
        "aviso_ia": AVISO_IA,
        "metodo_url": METODO_URL,
        "historico_url": HISTORICO_URL,
        "processado": d.processado,
        "transcricao_recusada": None,
    }
    if not d.processado:
        return base
    e = d.etapas
    nomes = {c["id"]: c["nome"] for c in e["placar.json"].get("candidatos", [])}
    cor = {c.id: c.cor for c in ctx.candidatos.values()}
    revisadas = e["checagens-revisadas.json"]["checagens"]
    estado = e["estado.json"]
    pagina = e["pagina.json"]
    leituras = {leitura["metodo"]: leitura for leitura in pagina["leituras"]}
    v1 = e.get("placar-v1.json") if "v1" in leituras else None
    papeis = e["papeis.json"].get("locutores", [])
    base.update(
        {
            "manchete": leituras["v2"]["manchete"],
            "placar": _tabela(e["placar.json"], leituras["v2"], cor),
            "placar_v1": _tabela(v1, leituras["v1"], cor) if v1 else None,
            "manchete_v1": leituras["v1"]["manchete"] if v1 else None,
            "mudancas": pagina["mudancas"],
            "turnos": _turnos_view(d, nomes),
            # page data of an older engine lacks it: the caption then leaves the figure out
            "pontos_item_proposta": _numero(pagina["pontos_item_proposta"], 0)
            if "pontos_item_proposta" in pagina
            else None,
            "ocultas": _ocultas(sum(1 for r in revisadas if r.get("oculta"))),
            "revisadas": _revisadas(sum(1 for r in revisadas if r.get("revisado"))),
            "aviso_ia": pagina.get("aviso", AVISO_IA),  # page data of an older engine: the generic notice
            "em_revisao": pagina.get("em_revisao", ""),
            "transcricao_recusada": estado.get("transcricao_recusada"),
            "encerrado": bool(estado.get("encerrado")),
            "em_andamento": estado.get("turno_em_andamento"),
            "vozes_ia": [p for p in papeis if p.get("origem") == "ia"],
            "placar_json": f"{d.url}placar.json",
            "atualizado": _atualizado(e["placar.json"].get("atualizado_em"), ctx.config.fuso_horario),
            "imagem_compartilhar": f"{d.url}{share_image.FILE_NAME}",
            "ao_vivo": None
            if estado.get("encerrado")
            else ao_vivo.debate_hooks(
                f"{d.url}placar.json", e["placar.json"].get("manchete"), ctx.config.fuso_horario
            ),
        }
    )
    return base


def _atualizado(valor: object, fuso: str) -> dict[str, str] | None:
    """When the scoreboard last changed, for the page; None for data of an older engine (no time)
    or a time without its UTC offset (the page then shows no time rather than a guessed one)."""
    if not isinstance(valor, str):
        return None
    try:
        instante = dt.datetime.fromisoformat(valor)
    except ValueError:
        return None
    if instante.utcoffset() is None:
        return None
    return {"iso": iso_utc(instante), "texto": data_hora(instante, fuso)}


def _chave(d: DebatePagina) -> str:
    # What the listing shows of a debate: its headline and readings come from the page data.
    pagina = next((f.sha256 for f in d.fontes if f.caminho.endswith("/pagina.json")), "")
    return f"{d.url}|{d.titulo}|{d.data.isoformat()}|{d.emissora}|{d.demonstracao}|{pagina}"


def section_keys(ctx: SiteContext) -> list[str]:
    """Fingerprint parts of the /debates/ listing."""
    return [_chave(d) for d in ctx.debates]


def _ao_vivo(d: DebatePagina) -> bool:
    return d.processado and not d.etapas["estado.json"].get("encerrado")


def home_card(ctx: SiteContext) -> dict[str, Any] | None:
    """The debate the home page shows: one on air if any, else the most recent; None without debates."""
    if not ctx.debates:
        return None
    d = max(ctx.debates, key=lambda d: (_ao_vivo(d), d.data, d.url))
    manchete = d.etapas["pagina.json"]["leituras"][0]["manchete"] if d.processado else None
    return {
        "url": d.url,
        "titulo": d.titulo,
        "data": _data(d.data),
        "ao_vivo": _ao_vivo(d),
        "demonstracao": d.demonstracao,
        "manchete": manchete or "Aguardando o primeiro ciclo de avaliação.",
    }


def home_keys(ctx: SiteContext) -> list[str]:
    """Fingerprint parts of the home page's debate card."""
    return [f"{_chave(d)}|{_ao_vivo(d)}" for d in ctx.debates]


def section_lastmod(ctx: SiteContext) -> str | None:
    """The day of the most recent debate (the listing shows every debate)."""
    return max((w3c(d.data) for d in ctx.debates), default=None)


def section_context(ctx: SiteContext) -> dict[str, Any]:
    """Context of the /debates/ listing (template `debates_indice.html`)."""
    itens = []
    for d in ctx.debates:
        manchete = d.etapas["pagina.json"]["leituras"][0]["manchete"] if d.processado else None
        itens.append(
            {
                "url": d.url,
                "titulo": d.titulo,
                "data": _data(d.data),
                "emissora": d.emissora,
                "demonstracao": d.demonstracao,
                "manchete": manchete or "Aguardando o primeiro ciclo de avaliação.",
                "duas_leituras": "v1" in d.leituras,
            }
        )
    return {"debates": itens, "aviso_ia": AVISO_IA, "metodo_url": METODO_URL}


# Page data of an older engine does not say who produced the scores: the card claims neither rules nor AI.
PRODUZIDO_DESCONHECIDO = "notas e checagens automáticas"


def rodape_cartao(data: str, encerrado: bool, pagina: dict[str, Any]) -> str:
    """The share card's footer: date, live or over, and what produced the scores and checks, as the
    debate job recorded it in `pagina.json` (rules, or the language model by name)."""
    situacao = "debate encerrado" if encerrado else "ao vivo"
    produzido = pagina.get("produzido_por")
    if not isinstance(produzido, str) or not produzido:
        produzido = PRODUZIDO_DESCONHECIDO
    return f"{data} · {situacao} · {produzido}, com fontes na página"


def share_card(ctx: SiteContext, d: DebatePagina) -> share_image.Cartao:
    """What a debate's share image shows: the headline and each candidate's score."""
    placar = d.etapas["placar.json"]
    manchete = d.etapas["pagina.json"]["leituras"][0]["manchete"]
    linhas = tuple(
        share_image.Linha(
            c["nome"],
            _numero(c.get("nota")) if c.get("nota") is not None else "sem nota",
            "nota de 0 a 100 · " + plural(c.get("turnos_avaliados", 0), "turno avaliado", "turnos avaliados"),
            ctx.candidatos[c["id"]].cor if c["id"] in ctx.candidatos else cores.SEM_ARQUIVO,
        )
        for c in placar.get("candidatos", [])[:3]
    )
    encerrado = bool(d.etapas["estado.json"].get("encerrado"))
    rodape = rodape_cartao(_data(d.data), encerrado, d.etapas["pagina.json"])
    return share_image.Cartao(ctx.config.titulo, d.titulo, manchete, linhas, rodape, d.demonstracao)


def plan(ctx: SiteContext) -> list[Artifact]:
    """The page of every debate, and its scoreboard JSON for reuse."""
    artifacts = []
    for d in ctx.debates:
        chave = [f"{f.caminho}:{f.sha256}" for f in d.fontes]
        chave += [f"{c.id}:{c.cor}" for c in ctx.candidatos.values()]  # colours on the scoreboard
        artifacts.append(
            Artifact(
                f"{d.url.lstrip('/')}index.html",
                "debate.html",
                fingerprint(*chave),
                lambda d=d: _contexto(d, ctx),  # type: ignore[misc]
                lastmod=w3c(d.data),
            )
        )
        placar = next((f for f in d.fontes if f.caminho.endswith("/placar.json")), None)
        if placar is not None and d.processado:
            artifacts.append(share_image.artifact(f"{d.url}{share_image.FILE_NAME}", share_card(ctx, d)))
        if placar is not None:
            artifacts.append(
                raw(f"{d.url.lstrip('/')}placar.json", placar.sha256, lambda d=d: d.placar_bytes)  # type: ignore[misc]
            )
    return artifacts
