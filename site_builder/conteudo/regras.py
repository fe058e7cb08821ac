"""The fact-check desk's content rules, one function per rule, shared by `eleicoes checagens validar`
and the site build (so the build refuses exactly what the pull-request check refuses).

Every problem is a `Problema` that prints as `arquivo:campo: problema`, in Portuguese. List indices
in field names start at 1, as editors count (`fontes[1]` is the first source).

Levels by status: a draft (`rascunho`) only needs an id (the builder never publishes one,
whatever else it says); a check sent for review (`em_revisao`) must be complete; a published one
(`publicada`) must also carry its approval by a second person and its publication date.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import os
import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import PurePosixPath
from typing import Any, NamedTuple, Protocol
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

from site_builder import markdown_render
from site_builder.conteudo import texto_seguro
from site_builder.conteudo.editores import Registro, identificar
from site_builder.conteudo.frontmatter import (
    FUSO_REDACAO,
    erro_toml,
    ler_toml,
    linha_do_campo,
    linha_no_arquivo,
    normalizar_linhas,
    split_front_matter,
)
from site_builder.conteudo.registros import (
    Candidato,
    Checagem,
    ChecagemResumo,
    Correcao,
    EventoHistorico,
    Fonte,
    FonteConsultada,
    Ocorrencia,
)
from site_builder.conteudo.vereditos import VEREDITOS
from site_builder.errors import ContentError

STATUS = ("rascunho", "em_revisao", "publicada")
# Where each occurrence was posted; the label is what readers see.
PLATAFORMAS = {
    "instagram": "Instagram",
    "facebook": "Facebook",
    "x": "X",
    "tiktok": "TikTok",
    "youtube": "YouTube",
    "kwai": "Kwai",
    "threads": "Threads",
    "telegram": "Telegram",
    "whatsapp": "WhatsApp",
    "site": "Site",
}
# Seed "Redação, em duas etapas": submitted, returned with notes, approved; plus contestations
# the desk acted on (seed "Política de correções": "Toda contestação com fonte é analisada").
TIPOS_HISTORICO = {
    "enviada": "Enviada para revisão",
    "devolvida": "Devolvida com observações",
    "aprovada": "Aprovada e publicada",
    "contestacao": "Contestação analisada",
}
RESULTADOS_CONTESTACAO = {"mantida": "veredito mantido", "corrigida": "checagem corrigida"}
# ClaimReview `claimReviewed` must be short (Google: "try to keep this less than 75 characters").
MAX_AFIRMACAO = 120
PASTA_COPIAS = "data/redes/"  # archived copies written by `eleicoes redes capturar`
PASTA_CONTEUDO = "content"  # what editors write
LINK_SIMBOLICO = (
    "é um link simbólico: o site só publica arquivos que estão no próprio projeto; "
    "coloque aqui o próprio arquivo, não um link para ele"
)
OCULTO = "arquivo ou pasta oculta (o nome começa com '.'): o site não a publica; apague-a ou renomeie-a"
SLUGS_RESERVADOS = ("correcoes", "candidatos", "veredito", "tema")  # other pages live under /checagens/
SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
COR = re.compile(r"^#[0-9a-fA-F]{6}$")
SLUG_CAMINHO = re.compile(r"^[A-Za-z0-9._/-]+$")
# A date later than the moment of the check by more than this is a typo (2062 for 2026), never a
# schedule: the site has no embargoed publication. The margin absorbs clocks a few minutes apart.
TOLERANCIA_FUTURO = dt.timedelta(minutes=10)

CAMPOS_CHECAGEM = frozenset(
    {
        "id", "slug", "afirmacao", "veredito", "candidato", "status", "autor", "revisor",
        "publicado_em", "demonstracao", "fontes", "ocorrencias", "historico", "correcoes", "tema",
    }
)  # fmt: skip
# Themes a check may carry (optional `tema`): the checks list can be filtered by them (issue 17).
TEMAS = {
    "saude": "Saúde",
    "educacao": "Educação",
    "seguranca": "Segurança",
    "economia": "Economia e contas públicas",
    "meio-ambiente": "Meio ambiente",
    "infraestrutura": "Infraestrutura e transporte",
    "assistencia-social": "Assistência social",
    "eleicoes": "Eleições",
}
CAMPOS_FONTE = frozenset({"url", "titulo", "acessado_em"})
CAMPOS_OCORRENCIA = frozenset({"url", "plataforma", "data", "arquivo", "alcance"})
CAMPOS_HISTORICO = frozenset({"tipo", "data", "pessoa", "nota", "resultado"})
CAMPOS_CORRECAO = frozenset({"data", "explicacao"})
CAMPOS_CANDIDATO = frozenset({"id", "nome", "partido", "cor", "perfis", "demonstracao"})

# Verdict labels must not appear in the claim text (ClaimReview: "don't put the rating in it").
_ROTULOS = re.compile(
    r"\b(" + "|".join(re.escape(v.rotulo.lower()) for v in VEREDITOS.values()) + r"|fake news|mentira)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Problema:
    """One broken rule, located by file, field and (when known) the file's line."""

    arquivo: str
    campo: str
    mensagem: str
    linha: int = 0  # from 1, as editors count; 0 when unknown

    def __str__(self) -> str:
        if self.linha:
            onde = (
                f"{self.arquivo}:{self.linha}: {self.campo}" if self.campo else f"{self.arquivo}:{self.linha}"
            )
            return f"{onde}: {self.mensagem}"
        return (
            f"{self.arquivo}:{self.campo}: {self.mensagem}"
            if self.campo
            else f"{self.arquivo}: {self.mensagem}"
        )


class ChecagemLida(NamedTuple):  # a tuple: the build caches one per file and pickles 10,000 of them
    """What reading one check file gave: the record (None if unusable), its problems, and apart
    the problems of the two-person rule (the build does not fail on them: it refuses to publish)."""

    checagem: Checagem | None
    problemas: tuple[Problema, ...]
    aprovacao: tuple[Problema, ...] = ()


class CandidatoLido(NamedTuple):
    """What reading one candidate file gave."""

    candidato: Candidato | None
    problemas: tuple[Problema, ...]


# ----------------------------------------------------------------------------- field readers


# Control characters (Unicode category Cc, but tab and line breaks) and lone surrogates (Cs).
_CONTROLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


def texto_invalido(valor: str) -> str | None:
    """Why a text cannot be published as is (broken encoding, control characters), or None."""
    if "\ufffd" in valor:
        return "contém o caractere � (U+FFFD): a codificação do texto se perdeu; copie-o de novo em UTF-8"
    if found := _CONTROLE.search(valor):
        return f"contém um caractere de controle (U+{ord(found.group(0)):04X}); apague-o"
    return None


_PORTAS = {"http": 80, "https": 443}
_IP_EM_OUTRA_FORMA = re.compile(r"^(?:0x[0-9a-f]*|[0-9]+)(?:\.(?:0x[0-9a-f]*|[0-9]*))*$", re.IGNORECASE)


def url_publica(valor: str) -> str | None:
    """Why `valor` is not an absolute public http(s) address, or None.

    Public: http or https; a host that is a domain name (its last label not a number) or a
    global IP address written in full; no user or password before the host (`https://ibge.gov.br@
    golpe.example/` goes to golpe.example); no port but the scheme's own (80, 443). Browsers read
    `127.1`, `0x7f.1` and `2130706433` as 127.0.0.1: any such short or hexadecimal form is refused.
    """
    if any(c.isspace() for c in valor):
        return "o endereço não pode ter espaços"
    parts = urlsplit(valor)
    if parts.scheme not in _PORTAS or not parts.hostname:
        return "use um endereço completo, começando com https:// (ou http://)"
    if "@" in parts.netloc:
        return "o endereço não pode ter usuário ou senha antes do nome do site (o que vem antes de '@')"
    if problema := _host_publico(parts.hostname.rstrip(".")):
        return problema
    try:
        porta = parts.port
    except ValueError:
        return "número de porta inválido no endereço"
    if porta is not None and porta != _PORTAS[parts.scheme]:
        return f"o endereço não pode indicar a porta {porta}: use o endereço público do site, sem ':{porta}'"
    return None


def _host_publico(host: str) -> str | None:
    """Why `host` is not a public host name or global IP address written in full, or None."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        if _IP_EM_OUTRA_FORMA.match(host) or host.rsplit(".", 1)[-1].isdigit():
            return f"'{host}' não é um endereço público (é um número de IP escrito de forma abreviada)"
        if host == "localhost" or host.endswith((".local", ".localhost")) or "." not in host:
            return f"'{host}' não é um endereço público"
        return None
    if not address.is_global:
        return f"'{host}' não é um endereço público"
    return None


class _Leitor:
    """Reads typed fields out of parsed TOML and records a Problema for each bad one."""

    def __init__(self, arquivo: str, agora: dt.datetime | None = None) -> None:
        self.arquivo = arquivo
        self.agora = agora  # None: dates are not compared with the present (an old revision)
        self.problemas: list[Problema] = []
        # Lists with an entry left out for its problems: rules over the whole list would only add
        # misleading messages (wrong positions, "no source" when there is a broken one), so they wait.
        self.incompletos: set[str] = set()

    def erro(self, campo: str, mensagem: str) -> None:
        self.problemas.append(Problema(self.arquivo, campo, mensagem))

    def desconhecidos(self, tabela: dict[str, Any], conhecidos: frozenset[str], prefixo: str = "") -> None:
        for chave in sorted(set(tabela) - conhecidos):
            self.erro(f"{prefixo}{chave}", "campo desconhecido (veja docs/CHECAGENS.md; erro de digitação?)")

    def texto(self, tabela: dict[str, Any], chave: str, campo: str, obrigatorio: bool = True) -> str:
        valor = tabela.get(chave)
        if valor is None:
            if obrigatorio:
                self.erro(campo, "campo obrigatório ausente")
            return ""
        if not isinstance(valor, str):
            self.erro(campo, "deve ser um texto entre aspas")
            return ""
        valor = valor.strip()
        if not valor and obrigatorio:
            self.erro(campo, "não pode ficar vazio")
        problema = texto_invalido(valor) or texto_seguro.problema_de_texto(valor)
        if problema:
            self.erro(campo, problema)
        return valor

    def data_hora(self, tabela: dict[str, Any], chave: str, campo: str) -> dt.datetime | None:
        valor = tabela.get(chave)
        if valor is None:
            self.erro(campo, "data e hora obrigatórias (ex.: 2026-10-12T14:30:00-03:00)")
            return None
        if not isinstance(valor, dt.datetime):
            self.erro(campo, "use data e hora com fuso, sem aspas (ex.: 2026-10-12T14:30:00-03:00)")
            return None
        if valor.tzinfo is None:
            self.erro(campo, "informe o fuso horário no fim (ex.: -03:00 para o horário de Brasília)")
            return None
        if self.agora is not None and valor > self.agora + TOLERANCIA_FUTURO:
            hora = valor.astimezone(ZoneInfo(FUSO_REDACAO)).isoformat()
            self.erro(campo, f"{hora} (horário de Brasília) está no futuro; confira a data (e o ano)")
            return None
        return valor

    def data(self, tabela: dict[str, Any], chave: str, campo: str) -> dt.date | None:
        valor = tabela.get(chave)
        if isinstance(valor, dt.datetime):
            valor = valor.date()
        if not isinstance(valor, dt.date):
            self.erro(campo, "data obrigatória, sem aspas (ex.: 2026-10-11)")
            return None
        # A day ahead of the present in UTC is still today somewhere in Brazil's time zones.
        if self.agora is not None and valor > (self.agora + dt.timedelta(days=1)).date():
            self.erro(campo, f"{valor.isoformat()} está no futuro; confira a data (e o ano)")
            return None
        return valor

    def url(self, tabela: dict[str, Any], chave: str, campo: str) -> str:
        valor = self.texto(tabela, chave, campo)
        if valor and (problema := url_publica(valor)):
            self.erro(campo, problema)
            return ""
        return valor

    def tabelas(self, meta: dict[str, Any], chave: str) -> list[tuple[str, dict[str, Any]]]:
        """`[[chave]]` entries as (field prefix, table); a wrong shape is one problem."""
        valor = meta.get(chave, [])
        if not isinstance(valor, list) or not all(isinstance(item, dict) for item in valor):
            self.erro(chave, f"use blocos [[{chave}]], um por item")
            self.incompletos.add(chave)
            return []
        return [(f"{chave}[{i}]", item) for i, item in enumerate(valor, start=1)]

    def booleano(self, meta: dict[str, Any], chave: str) -> bool:
        valor = meta.get(chave, False)
        if not isinstance(valor, bool):
            self.erro(chave, "use true ou false, sem aspas")
            return False
        return valor


# ----------------------------------------------------------------------------- parts of a check


def _fontes(leitor: _Leitor, meta: dict[str, Any]) -> tuple[FonteConsultada, ...]:
    fontes = []
    for campo, tabela in leitor.tabelas(meta, "fontes"):
        antes = len(leitor.problemas)
        leitor.desconhecidos(tabela, CAMPOS_FONTE, f"{campo}.")
        url = leitor.url(tabela, "url", f"{campo}.url")
        titulo = leitor.texto(tabela, "titulo", f"{campo}.titulo")
        acessado_em = leitor.data(tabela, "acessado_em", f"{campo}.acessado_em")
        if len(leitor.problemas) == antes and acessado_em is not None:
            fontes.append(FonteConsultada(url, titulo, acessado_em))
        else:
            leitor.incompletos.add("fontes")
    return tuple(fontes)


def caminho_copia_invalido(caminho: str) -> str | None:
    """Why an archived-copy path is not acceptable, or None."""
    path = PurePosixPath(caminho)
    if path.is_absolute() or "\\" in caminho or ".." in path.parts:
        return f"use um caminho relativo à raiz do projeto, dentro de {PASTA_COPIAS}"
    if not caminho.startswith(PASTA_COPIAS) or caminho == PASTA_COPIAS:
        return f"a cópia arquivada deve estar em {PASTA_COPIAS} (é onde 'eleicoes redes capturar' a grava)"
    if not SLUG_CAMINHO.match(caminho):
        return "use só letras sem acento, números, '.', '_', '-' e '/' no caminho"
    if any(parte.startswith(".") for parte in path.parts):
        return "a cópia não pode estar em arquivo ou pasta oculta (nome começando com '.')"
    return None


def _ocorrencias(leitor: _Leitor, meta: dict[str, Any]) -> tuple[Ocorrencia, ...]:
    ocorrencias = []
    for campo, tabela in leitor.tabelas(meta, "ocorrencias"):
        antes = len(leitor.problemas)
        leitor.desconhecidos(tabela, CAMPOS_OCORRENCIA, f"{campo}.")
        url = leitor.url(tabela, "url", f"{campo}.url")
        plataforma = leitor.texto(tabela, "plataforma", f"{campo}.plataforma")
        if plataforma and plataforma not in PLATAFORMAS:
            leitor.erro(f"{campo}.plataforma", f"'{plataforma}' não existe (use {', '.join(PLATAFORMAS)})")
        data = leitor.data_hora(tabela, "data", f"{campo}.data")
        arquivo = leitor.texto(tabela, "arquivo", f"{campo}.arquivo")
        if arquivo and (problema := caminho_copia_invalido(arquivo)):
            leitor.erro(f"{campo}.arquivo", problema)
        alcance = tabela.get("alcance")
        if alcance is not None and (isinstance(alcance, bool) or not isinstance(alcance, int) or alcance < 0):
            leitor.erro(
                f"{campo}.alcance", "use um número inteiro de pessoas alcançadas, sem aspas (ou omita)"
            )
            alcance = None
        if len(leitor.problemas) == antes and data is not None:
            ocorrencias.append(Ocorrencia(url, plataforma, data, arquivo, alcance))
        else:
            leitor.incompletos.add("ocorrencias")
    return tuple(ocorrencias)


def _historico(leitor: _Leitor, meta: dict[str, Any]) -> tuple[EventoHistorico, ...]:
    eventos = []
    for campo, tabela in leitor.tabelas(meta, "historico"):
        antes = len(leitor.problemas)
        leitor.desconhecidos(tabela, CAMPOS_HISTORICO, f"{campo}.")
        tipo = leitor.texto(tabela, "tipo", f"{campo}.tipo")
        if tipo and tipo not in TIPOS_HISTORICO:
            leitor.erro(f"{campo}.tipo", f"'{tipo}' não existe (use {', '.join(TIPOS_HISTORICO)})")
        data = leitor.data_hora(tabela, "data", f"{campo}.data")
        pessoa = leitor.texto(tabela, "pessoa", f"{campo}.pessoa")
        nota = leitor.texto(tabela, "nota", f"{campo}.nota", obrigatorio=tipo in ("devolvida", "contestacao"))
        resultado = leitor.texto(tabela, "resultado", f"{campo}.resultado", obrigatorio=tipo == "contestacao")
        if resultado and tipo != "contestacao":
            leitor.erro(f"{campo}.resultado", "só se usa em eventos do tipo 'contestacao'")
        elif resultado and resultado not in RESULTADOS_CONTESTACAO:
            leitor.erro(
                f"{campo}.resultado", f"'{resultado}' não existe (use {', '.join(RESULTADOS_CONTESTACAO)})"
            )
        if len(leitor.problemas) == antes and data is not None:
            eventos.append(EventoHistorico(tipo, data, pessoa, nota, resultado))
        else:
            leitor.incompletos.add("historico")
    return tuple(eventos)


def _correcoes(leitor: _Leitor, meta: dict[str, Any]) -> tuple[Correcao, ...]:
    correcoes = []
    for campo, tabela in leitor.tabelas(meta, "correcoes"):
        antes = len(leitor.problemas)
        leitor.desconhecidos(tabela, CAMPOS_CORRECAO, f"{campo}.")
        data = leitor.data_hora(tabela, "data", f"{campo}.data")
        explicacao = leitor.texto(tabela, "explicacao", f"{campo}.explicacao")
        if len(leitor.problemas) == antes and data is not None:
            correcoes.append(Correcao(data, explicacao))
        else:
            leitor.incompletos.add("correcoes")
    return tuple(correcoes)


# ----------------------------------------------------------------------------- rules on a whole check


def regra_afirmacao(c: Checagem) -> list[Problema]:
    """The claim is short and does not give away the verdict (ClaimReview `claimReviewed`)."""
    problemas = []
    if len(c.afirmacao) > MAX_AFIRMACAO:
        problemas.append(
            Problema(
                c.fonte.caminho,
                "afirmacao",
                f"tem {len(c.afirmacao)} caracteres; resuma a afirmação em até {MAX_AFIRMACAO}",
            )
        )
    if found := _ROTULOS.search(c.afirmacao):
        problemas.append(
            Problema(
                c.fonte.caminho,
                "afirmacao",
                f"não ponha o veredito no texto da afirmação ('{found.group(0)}'); ele vai no campo veredito",
            )
        )
    return problemas


def regra_fontes(c: Checagem) -> list[Problema]:
    """At least one public source, unless the verdict is `sem_dados` (seed: "Compromisso com as fontes")."""
    if c.fontes or c.veredito == "sem_dados":
        return []
    return [
        Problema(
            c.fonte.caminho,
            "fontes",
            "informe ao menos uma fonte pública ([[fontes]] com url, titulo e acessado_em); "
            "sem fonte confiável, o veredito é sem_dados",
        )
    ]


def regra_ocorrencias(c: Checagem) -> list[Problema]:
    """The claim was posted somewhere, before the check was published."""
    if not c.ocorrencias:
        return [
            Problema(
                c.fonte.caminho,
                "ocorrencias",
                "informe ao menos uma ocorrência ([[ocorrencias]]: onde o candidato publicou a afirmação)",
            )
        ]
    primeira = min(o.data for o in c.ocorrencias)
    if c.publicado_em is not None and primeira > c.publicado_em:
        return [
            Problema(
                c.fonte.caminho,
                "ocorrencias",
                "a ocorrência mais antiga é posterior à publicação da checagem; confira as datas",
            )
        ]
    return []


def regra_historico(c: Checagem) -> list[Problema]:
    """The review steps are in order: sent by the author, returned or approved by someone else."""
    where = c.fonte.caminho
    problemas = []
    anterior: dt.datetime | None = None
    em_revisao = False
    for i, evento in enumerate(c.historico, start=1):
        campo = f"historico[{i}]"
        if anterior is not None and evento.data < anterior:
            problemas.append(
                Problema(where, f"{campo}.data", "os eventos do histórico devem estar em ordem de data")
            )
        anterior = evento.data
        if evento.tipo == "enviada":
            if c.autor and evento.pessoa != c.autor:
                problemas.append(
                    Problema(where, f"{campo}.pessoa", f"quem envia para revisão é o autor ('{c.autor}')")
                )
            em_revisao = True
        elif evento.tipo in ("devolvida", "aprovada"):
            if not em_revisao:
                problemas.append(
                    Problema(where, f"{campo}.tipo", f"'{evento.tipo}' sem um 'enviada' antes dele")
                )
            if evento.tipo == "devolvida" and evento.pessoa == c.autor:
                problemas.append(
                    Problema(where, f"{campo}.pessoa", "quem devolve é o revisor, nunca o próprio autor")
                )
            em_revisao = False
    if c.status in ("em_revisao", "publicada") and not any(e.tipo == "enviada" for e in c.historico):
        problemas.append(
            Problema(where, "historico", 'registre o envio para revisão (tipo = "enviada", data, pessoa)')
        )
    return problemas


def _aprovacao(c: Checagem) -> EventoHistorico | None:
    aprovacoes = [e for e in c.historico if e.tipo == "aprovada"]
    return aprovacoes[-1] if aprovacoes else None


def regra_duas_pessoas(c: Checagem) -> list[Problema]:
    """A published check is approved by a person other than its author (seed: "Outro editor,
    sempre uma pessoa diferente, aprova e publica"). The build refuses to publish it otherwise."""
    if c.status != "publicada":
        return []
    where = c.fonte.caminho
    if not c.revisor:
        return [Problema(where, "revisor", "checagem publicada sem revisor: outra pessoa precisa aprová-la")]
    if c.revisor == c.autor:
        return [Problema(where, "revisor", "o revisor é o próprio autor: outra pessoa precisa aprovar")]
    aprovacao = _aprovacao(c)
    if aprovacao is None:
        return [
            Problema(where, "historico", 'checagem publicada sem o registro da aprovação (tipo = "aprovada")')
        ]
    if aprovacao.pessoa == c.autor:
        return [Problema(where, "historico", "a aprovação foi registrada pelo próprio autor")]
    ultima = [e for e in c.historico if e.tipo != "contestacao"][-1]
    if ultima.tipo != "aprovada":
        return [
            Problema(
                where,
                "historico",
                f"o último passo da revisão é '{ultima.tipo}': uma checagem publicada termina aprovada",
            )
        ]
    if aprovacao.pessoa != c.revisor:
        return [
            Problema(
                where,
                "revisor",
                f"o revisor ('{c.revisor}') não é quem aprovou no histórico ('{aprovacao.pessoa}')",
            )
        ]
    return []


def regra_publicacao(c: Checagem) -> list[Problema]:
    """A published check has a publication date, not before its approval; others have none."""
    where = c.fonte.caminho
    if c.status != "publicada":
        if c.publicado_em is not None:
            return [
                Problema(
                    where, "publicado_em", 'só checagens com status = "publicada" têm data de publicação'
                )
            ]
        return []
    if c.publicado_em is None:
        return [Problema(where, "publicado_em", "data obrigatória em checagem publicada")]
    aprovacao = _aprovacao(c)
    if aprovacao is not None and c.publicado_em < aprovacao.data:
        return [Problema(where, "publicado_em", "a checagem não pode ter sido publicada antes de aprovada")]
    return []


def regra_correcoes(c: Checagem) -> list[Problema]:
    """Corrections belong to published checks and come after the publication, in order."""
    where = c.fonte.caminho
    if not c.correcoes:
        return []
    if c.status != "publicada":
        return [Problema(where, "correcoes", "só uma checagem publicada pode ter correções")]
    problemas = []
    anterior = c.publicado_em
    for i, correcao in enumerate(c.correcoes, start=1):
        if anterior is not None and correcao.data < anterior:
            problemas.append(
                Problema(
                    where,
                    f"correcoes[{i}].data",
                    "a correção deve ser posterior à publicação e às correções anteriores",
                )
            )
        anterior = correcao.data
    return problemas


def regra_contestacoes(c: Checagem) -> list[Problema]:
    """A contestation that changed the check is matched by a public correction (seed: "Política de
    correções")."""
    problemas = []
    for i, evento in enumerate(c.historico, start=1):
        if evento.tipo != "contestacao" or evento.resultado != "corrigida":
            continue
        if not any(correcao.data >= evento.data for correcao in c.correcoes):
            problemas.append(
                Problema(
                    c.fonte.caminho,
                    f"historico[{i}]",
                    "contestação com resultado 'corrigida' precisa de uma correção ([[correcoes]]) "
                    "com data igual ou posterior",
                )
            )
    return problemas


# Each rule with the parts of the file it reads: it runs only when those parts were read whole.
REGRAS_CONTEUDO: tuple[tuple[Callable[[Checagem], list[Problema]], tuple[str, ...]], ...] = (
    (regra_afirmacao, ("afirmacao",)),
    (regra_fontes, ("fontes", "veredito")),
    (regra_ocorrencias, ("ocorrencias", "publicado_em")),
    (regra_historico, ("historico", "autor")),
    (regra_publicacao, ("historico", "status", "publicado_em")),
    (regra_correcoes, ("correcoes", "status", "publicado_em")),
    (regra_contestacoes, ("historico", "correcoes")),
)
REGRA_APROVACAO = (regra_duas_pessoas, ("historico", "status", "autor", "revisor"))


# ----------------------------------------------------------------------------- reading files


def ler_checagem(
    texto: str,
    fonte: Fonte,
    editores: Registro | None,
    agora: dt.datetime | None,
    enderecos: Callable[[str], list[str]] = markdown_render.addresses,
) -> ChecagemLida:
    """Parse one check file and apply every rule that needs only this file (and the registry).

    `editores`: the registry people are checked against (None only for callers that read a
    check's text, never to publish it). `agora`: dates after it are refused (None: not compared).
    `enderecos`: the body's link addresses as the pages' renderer reads them; a caller reading many
    files passes one renderer's `addresses`.
    """
    arquivo = fonte.caminho
    if len(texto) > texto_seguro.MAX_ARQUIVO:
        return ChecagemLida(None, (Problema(arquivo, "", grande_demais(len(texto))),))
    texto = normalizar_linhas(texto)  # what the lines below count: the body's offset, fields' lines
    try:
        meta, corpo = split_front_matter(texto, arquivo)
    except ContentError as exc:
        return ChecagemLida(None, (Problema(arquivo, exc.field, exc.problem, exc.line),))
    leitor = _Leitor(arquivo, agora)
    status = leitor.texto(meta, "status", "status")
    if status and status not in STATUS:
        leitor.erro("status", f"'{status}' não existe (use {', '.join(STATUS)})")
    identificador = leitor.texto(meta, "id", "id")
    if identificador and not SLUG.match(identificador):
        leitor.erro("id", "use apenas letras minúsculas sem acento, números e '-'")
    nome_arquivo = arquivo.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    slug = leitor.texto(meta, "slug", "slug", obrigatorio=False) or nome_arquivo
    if not SLUG.match(slug):
        leitor.erro("slug", "use apenas letras minúsculas sem acento, números e '-'")
    elif slug in SLUGS_RESERVADOS:
        leitor.erro("slug", f"'{slug}' é reservado para outra página do site")
    if status == "rascunho":
        # Seed: "O rascunho nunca é publicado sozinho" — nothing else of a draft is read.
        rascunho = Checagem(
            id=identificador,
            slug=slug,
            afirmacao=str(meta.get("afirmacao", "")),
            veredito=str(meta.get("veredito", "")),
            candidato=str(meta.get("candidato", "")),
            status="rascunho",
            autor=str(meta.get("autor", "")),
            revisor="",
            publicado_em=None,
            demonstracao=meta.get("demonstracao") is True,
            fonte=fonte,
        )
        return ChecagemLida(rascunho, tuple(leitor.problemas))
    leitor.desconhecidos(meta, CAMPOS_CHECAGEM)
    afirmacao = leitor.texto(meta, "afirmacao", "afirmacao")
    veredito = leitor.texto(meta, "veredito", "veredito")
    if veredito and veredito not in VEREDITOS:
        leitor.erro("veredito", f"'{veredito}' não existe (use {', '.join(VEREDITOS)})")
    candidato = leitor.texto(meta, "candidato", "candidato")
    autor = leitor.texto(meta, "autor", "autor")
    revisor = leitor.texto(meta, "revisor", "revisor", obrigatorio=False)
    publicado_em = leitor.data_hora(meta, "publicado_em", "publicado_em") if "publicado_em" in meta else None
    tema = leitor.texto(meta, "tema", "tema", obrigatorio=False)
    if tema and tema not in TEMAS:
        leitor.erro("tema", f"'{tema}' não existe (use {', '.join(TEMAS)})")
    if not corpo.strip():
        leitor.erro("explicacao", "a explicação (o texto depois do segundo '+++') não pode ficar vazia")
    elif problema := texto_invalido(corpo):
        leitor.erro("explicacao", problema)
    else:
        antes_do_corpo = texto[: len(texto) - len(corpo)].count("\n")  # the body ends the file
        for linha, problema in texto_seguro.problemas_do_corpo(corpo, enderecos):
            leitor.erro(str(antes_do_corpo + linha), problema)
    checagem = Checagem(
        id=identificador,
        slug=slug,
        afirmacao=afirmacao,
        veredito=veredito,
        candidato=candidato,
        status=status if status in STATUS else "em_revisao",
        autor=autor,
        revisor=revisor,
        publicado_em=publicado_em,
        demonstracao=leitor.booleano(meta, "demonstracao"),
        fonte=fonte,
        fontes=_fontes(leitor, meta),
        ocorrencias=_ocorrencias(leitor, meta),
        historico=_historico(leitor, meta),
        correcoes=_correcoes(leitor, meta),
        tema=tema if tema in TEMAS else "",
    )
    recusados = {p.campo for p in leitor.problemas}  # one message per field
    identidades = _identidades(checagem, editores, arquivo, recusados) if editores is not None else []
    # A field with its own problem leaves out the rules that read it (no cascade of messages).
    incompletos = leitor.incompletos | {
        p.campo.split("[")[0].split(".")[0] for p in [*leitor.problemas, *identidades]
    }
    problemas = list(leitor.problemas)
    for regra, partes in REGRAS_CONTEUDO:
        if not incompletos.intersection(partes):
            problemas += regra(checagem)
    regra, partes = REGRA_APROVACAO
    aprovacao = identidades + (regra(checagem) if not incompletos.intersection(partes) else [])
    no_arquivo = partial(linha_no_arquivo, texto)
    return ChecagemLida(checagem, _com_linhas(problemas, no_arquivo), _com_linhas(aprovacao, no_arquivo))


# The line a problem of a field that is not written points to: the front matter's first line
# (the opening `+++`), where a missing key goes.
LINHA_DO_INICIO = 1


def _com_linhas(problemas: Sequence[Problema], linha: Callable[[str], int]) -> tuple[Problema, ...]:
    """The problems with the line of their field where it is written, else the front matter's
    first line (a missing key); the body's problems already name their line as the field, and the
    explanation (the body, not a key) keeps none."""
    return tuple(
        Problema(p.arquivo, p.campo, p.mensagem, linha(p.campo) or LINHA_DO_INICIO)
        if p.campo and not p.campo.isdigit() and not p.linha and p.campo != "explicacao"
        else p
        for p in problemas
    )


def localizar(problemas: Sequence[Problema], textos: Mapping[str, str]) -> list[Problema]:
    """`problemas` found outside one file's reading (an unknown candidate, a missing archived
    copy) with the line of their field in the file's text from `textos` (see `_com_linhas`)."""
    saida = []
    for p in problemas:
        texto = textos.get(p.arquivo)
        if texto is None or p.linha or not p.campo:
            saida.append(p)
        else:
            saida.append(_com_linhas((p,), partial(linha_no_arquivo, texto))[0])
    return saida


def grande_demais(tamanho: int) -> str:
    """The message for a content file over `texto_seguro.MAX_ARQUIVO` characters."""
    return (
        f"o arquivo tem {tamanho} caracteres, acima do limite de {texto_seguro.MAX_ARQUIVO}; "
        "uma checagem real cabe com folga"
    )


def _identidades(c: Checagem, editores: Registro, arquivo: str, ja_recusados: set[str]) -> list[Problema]:
    """Author, reviewer and every person of the history are registered editors, written by id
    (the two-person rule then compares people, not spellings)."""
    pessoas = [("autor", c.autor), ("revisor", c.revisor)]
    pessoas += [(f"historico[{i}].pessoa", e.pessoa) for i, e in enumerate(c.historico, start=1)]
    problemas = []
    for campo, valor in pessoas:
        if valor and campo not in ja_recusados:
            _id, problema = identificar(editores, valor)
            if problema:
                problemas.append(Problema(arquivo, campo, problema))
    return problemas


def resumo(c: Checagem) -> ChecagemResumo:
    """What the build caches of a check (see records.ChecagemResumo)."""
    return ChecagemResumo(
        c.id,
        c.slug,
        c.afirmacao,
        c.veredito,
        c.candidato,
        c.status,
        c.publicado_em,
        c.demonstracao,
        c.correcoes,
        tuple(o.arquivo for o in c.ocorrencias),
        None,
        c.tema,
    )


def ler_candidato(texto: str, fonte: Fonte) -> CandidatoLido:
    """Parse one candidate file (`content/candidatos/<id>.toml`) and apply its rules."""
    arquivo = fonte.caminho
    identificador = arquivo.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    if len(texto) > texto_seguro.MAX_ARQUIVO:
        return CandidatoLido(None, (Problema(arquivo, "", grande_demais(len(texto))),))
    texto = normalizar_linhas(texto)
    try:
        meta = ler_toml(texto, arquivo)
    except ContentError as exc:
        return CandidatoLido(None, (Problema(arquivo, "", exc.problem, exc.line),))
    except tomllib.TOMLDecodeError as exc:
        linha, campo, mensagem = erro_toml(exc, texto)
        return CandidatoLido(None, (Problema(arquivo, campo, mensagem, linha),))
    leitor = _Leitor(arquivo)
    leitor.desconhecidos(meta, CAMPOS_CANDIDATO)
    if not SLUG.match(identificador):
        leitor.erro("id", "o nome do arquivo é o id: use apenas letras minúsculas sem acento, números e '-'")
    if "id" in meta and meta["id"] != identificador:
        leitor.erro("id", f"deve ser igual ao nome do arquivo ('{identificador}')")
    nome = leitor.texto(meta, "nome", "nome")
    partido = leitor.texto(meta, "partido", "partido")
    cor = leitor.texto(meta, "cor", "cor")
    if cor and not COR.match(cor):
        leitor.erro("cor", "use o formato #RRGGBB")
    perfis_brutos = meta.get("perfis", [])
    perfis: list[str] = []
    if not isinstance(perfis_brutos, list):
        leitor.erro("perfis", 'use uma lista de endereços: perfis = ["https://..."]')
    else:
        for i, perfil in enumerate(perfis_brutos, start=1):
            if not isinstance(perfil, str):
                leitor.erro(f"perfis[{i}]", "deve ser um endereço entre aspas")
            elif problema := url_publica(perfil) or texto_seguro.problema_de_texto(perfil):
                leitor.erro(f"perfis[{i}]", problema)
            else:
                perfis.append(perfil)
    demonstracao = leitor.booleano(meta, "demonstracao")
    candidato = Candidato(identificador, nome, partido, cor, demonstracao, fonte, tuple(perfis))
    return CandidatoLido(candidato, _com_linhas(leitor.problemas, partial(linha_do_campo, texto)))


# ----------------------------------------------------------------------------- rules across files


class _Chave(Protocol):
    @property
    def id(self) -> str: ...
    @property
    def slug(self) -> str: ...
    @property
    def candidato(self) -> str: ...
    @property
    def status(self) -> str: ...
    @property
    def fonte(self) -> Fonte | None: ...


def publicavel(status: str | None, com_problemas: bool, sem_aprovacao: bool) -> bool:
    """Whether the build publishes a check file: status `publicada`, no rule broken (a broken rule
    fails the whole build) and approved by a second person. Everything that reuses the desk's
    verdicts (claim memory, the live debate) asks through this function, as the build does."""
    return status == "publicada" and not com_problemas and not sem_aprovacao


def lida_publicavel(lida: ChecagemLida) -> bool:
    """`publicavel` for a file read by `ler_checagem`."""
    return lida.checagem is not None and publicavel(
        lida.checagem.status, bool(lida.problemas), bool(lida.aprovacao)
    )


def regras_do_conjunto(
    checagens: Sequence[_Chave], candidatos: Mapping[str, object], espelhar: bool = False
) -> list[Problema]:
    """Rules that need every file: known candidate, unique id, unique address. A repeated id or
    address is a problem of the later file, naming the earlier one (which stays published);
    `espelhar` (validar) also gives the earlier file a problem naming the later one, so validating
    either file alone finds the pair."""
    problemas = []
    ids: dict[str, str] = {}
    slugs: dict[str, str] = {}
    for c in checagens:
        where = c.fonte.caminho if c.fonte else ""
        if c.candidato and c.candidato not in candidatos and c.status != "rascunho":
            problemas.append(Problema(where, "candidato", f"'{c.candidato}' não está em content/candidatos/"))
        if c.id:
            if c.id in ids:
                problemas.append(Problema(where, "id", f"'{c.id}' já é usado por {ids[c.id]}"))
                if espelhar:
                    problemas.append(Problema(ids[c.id], "id", f"'{c.id}' também é usado por {where}"))
            else:
                ids[c.id] = where
        if c.status != "rascunho":
            if c.slug in slugs:
                problemas.append(Problema(where, "slug", f"'{c.slug}' já é usado por {slugs[c.slug]}"))
                if espelhar:
                    problemas.append(
                        Problema(slugs[c.slug], "slug", f"'{c.slug}' também é usado por {where}")
                    )
            else:
                slugs[c.slug] = where
    return problemas


def entradas_proibidas(raiz: str) -> list[Problema]:
    """Symlinks and hidden files or folders under `content/` and the archived copies' folder
    (issue 22: a symlinked copy made the build publish a file from outside the project), found
    without following any link; a hidden folder or a link is reported, not entered."""
    problemas = []
    pendentes = [PASTA_CONTEUDO, PASTA_COPIAS.rstrip("/")]
    while pendentes:
        rel = pendentes.pop()
        caminho = os.path.join(raiz, rel)  # noqa: PTH118 - plain strings over thousands of copies
        if os.path.islink(caminho):  # noqa: PTH114
            problemas.append(Problema(rel, "", LINK_SIMBOLICO))
            continue
        try:
            with os.scandir(caminho) as it:
                entradas = sorted((e.name, e.is_symlink(), e.is_dir(follow_symlinks=False)) for e in it)
        except (FileNotFoundError, NotADirectoryError):
            continue
        for nome, link, pasta in entradas:
            filho = f"{rel}/{nome}"
            if link:
                problemas.append(Problema(filho, "", LINK_SIMBOLICO))
            elif nome.startswith("."):
                problemas.append(Problema(filho, "", OCULTO))
            elif pasta:
                pendentes.append(filho)
    return sorted(problemas, key=lambda p: p.arquivo)


def copias_ausentes(raiz: str, c: Checagem) -> list[Problema]:
    """Archived copies named by a check that are not in the project (seed: "para que a prova
    continue existindo"). `validar` fails on them; the build only leaves the link out."""
    return [
        Problema(c.fonte.caminho, f"ocorrencias[{i}].arquivo", f"cópia arquivada não encontrada: {o.arquivo}")
        for i, o in enumerate(c.ocorrencias, start=1)
        if o.arquivo and not os.path.isfile(os.path.join(raiz, o.arquivo))  # noqa: PTH113, PTH118
    ]


# ----------------------------------------------------------------------------- corrections over time


class Versao(NamedTuple):
    """What the correction policy compares between two revisions of a check."""

    status: str
    veredito: str
    afirmacao: str
    explicacao: str  # the body, whitespace collapsed: re-wrapping a paragraph is not a change
    correcoes: tuple[Correcao, ...]


_ID = re.compile(r'^id\s*=\s*"([^"]*)"', re.MULTILINE)


def identificador(texto: str) -> str:
    """The `id` of a check file read straight from its text ("" if none), to follow a renamed file."""
    found = _ID.search(texto)
    return found.group(1) if found else ""


def normalizar(texto: str) -> str:
    """`texto` with its whitespace collapsed: what the correction rule compares (re-wrapping a
    paragraph is not a change)."""
    return " ".join(texto.split())


def versao(texto: str, arquivo: str) -> Versao | None:
    """The compared parts of a check's text, or None if it cannot be read."""
    try:
        meta, corpo = split_front_matter(texto, arquivo)
    except ContentError:
        return None
    leitor = _Leitor(arquivo)
    return Versao(
        status=str(meta.get("status", "")),
        veredito=str(meta.get("veredito", "")),
        afirmacao=normalizar(str(meta.get("afirmacao", ""))),
        explicacao=normalizar(corpo),
        correcoes=_correcoes(leitor, meta),
    )


def regra_correcao_publica(
    anterior: Versao, atual: Versao, arquivo: str, rev: str, em_rev: str = ""
) -> list[Problema]:
    """Seed "Política de correções": once published, every change of verdict or text carries a
    new public correction, and published corrections are never removed or rewritten.

    `rev` names what `anterior` is ("HEAD", "a última publicação do site"); `em_rev` says where
    it was ("em HEAD" by default)."""
    em_rev = em_rev or f"em {rev}"
    if anterior.status != "publicada":
        return []
    problemas = []
    if atual.status != "publicada":
        problemas.append(
            Problema(
                arquivo,
                "status",
                f"a checagem já estava publicada {em_rev}; para retirá-la ou mudá-la, publique uma correção",
            )
        )
    if atual.correcoes[: len(anterior.correcoes)] != anterior.correcoes:
        problemas.append(
            Problema(
                arquivo,
                "correcoes",
                f"correções já publicadas ({em_rev}) não podem ser apagadas nem alteradas",
            )
        )
    mudancas = [
        nome
        for nome, antes, depois in (
            ("veredito", anterior.veredito, atual.veredito),
            ("afirmacao", anterior.afirmacao, atual.afirmacao),
            ("explicação", anterior.explicacao, atual.explicacao),
        )
        if antes != depois
    ]
    if mudancas and len(atual.correcoes) <= len(anterior.correcoes):
        detalhe = ", ".join(mudancas)
        if "veredito" in mudancas:
            detalhe = detalhe.replace("veredito", f"veredito {anterior.veredito} → {atual.veredito}")
        problemas.append(
            Problema(
                arquivo,
                "correcoes",
                f"a checagem publicada mudou desde {rev} ({detalhe}); "
                "acrescente uma correção [[correcoes]] com data e explicação",
            )
        )
    return problemas
