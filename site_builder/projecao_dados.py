"""Records of the projection pages: the model's output (`saida.json`, format in docs/MODELO.md)
typed as a `Leitura`, and the races and captures read from `data/tse/`.

`parse_saida` is pure: bytes in, a `Leitura` out, or `SaidaInvalidaError` with a Portuguese reason.
Only the keys the pages show are read; unknown keys are ignored (the model may add extras).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from site_builder.overtake import StratumVotes

SECTION_URL = "/projecao/"
TSE_DIR = "data/tse"

# "Governador do Pará": the states whose governor race may have a folder `governador-<uf>`.
UF_NOMES = {
    "ac": "do Acre", "al": "de Alagoas", "am": "do Amazonas", "ap": "do Amapá", "ba": "da Bahia",
    "ce": "do Ceará", "df": "do Distrito Federal", "es": "do Espírito Santo", "go": "de Goiás",
    "ma": "do Maranhão", "mg": "de Minas Gerais", "ms": "de Mato Grosso do Sul", "mt": "de Mato Grosso",
    "pa": "do Pará", "pb": "da Paraíba", "pe": "de Pernambuco", "pi": "do Piauí", "pr": "do Paraná",
    "rj": "do Rio de Janeiro", "rn": "do Rio Grande do Norte", "ro": "de Rondônia", "rr": "de Roraima",
    "rs": "do Rio Grande do Sul", "sc": "de Santa Catarina", "se": "de Sergipe", "sp": "de São Paulo",
    "to": "do Tocantins",
}  # fmt: skip


class SaidaInvalidaError(ValueError):
    """A `saida.json` the pages cannot show; the message is in Portuguese."""


@dataclass(frozen=True)
class CandidatoProjetado:
    """One candidate in one reading: official partial and projection."""

    numero: int
    nome: str
    votos: int  # official partial
    parcial_pct: float
    pct: float  # projection (corrected where the model corrects)
    sem_correcao: float
    faixa: float  # half-width of the band, pp
    intervalo: tuple[float, float]
    votos_projetados: int


@dataclass(frozen=True)
class Criterio:
    """One publication criterion as the model evaluated it."""

    id: str
    descricao: str
    ok: bool
    valor: float | None
    limite: float | None
    unidade: str
    nota: str | None


@dataclass(frozen=True)
class Estrato:
    """One part (UF, municipality or zone) of a reading."""

    id: str
    arquivo: str | None
    valido: bool
    motivo: str | None
    preservado: bool
    secoes_pct: float | None
    eleitorado: int | None
    eleitorado_totalizado: int
    validos: int
    restantes: int
    base: str
    projetados: tuple[tuple[int, int], ...]  # (candidate number, projected votes), by number


@dataclass(frozen=True)
class Leitura:
    """One stored model output, as the pages show it."""

    versao: str
    calibracao: str
    calibracao_sha256: str
    eleicao: str
    cargo: str
    uf: str
    turno: int
    modo: str
    degradado: bool
    demonstracao: bool  # the model saw simulated TSE files ("f": "s"): a demonstration night
    agora: dt.datetime | None
    apurado_pct: float
    confianca: str
    publicavel: bool
    criterios: tuple[Criterio, ...]
    nao_atendidos: tuple[str, ...]
    parcial_fonte: str
    parcial_eleitorado: int | None
    parcial_totalizado: int | None
    parcial_validos: int
    candidatos: tuple[CandidatoProjetado, ...]  # by ballot number, as the model lists them
    correcao_pp: float
    correcao_candidato: int | None
    margem: float | None
    margem_entre: tuple[int, ...]
    faixa_margem: float
    tendencia: int | None  # None = "indefinido"
    definido_matematicamente: bool
    erro_projecao: float
    erro_parcial: float
    validos_projetados: int
    estratos: tuple[Estrato, ...]
    deriva_fora: bool = False  # live drift check: correction dropped (model's `verificacao_deriva`)
    deriva_razao: float | None = None
    deriva_faixa: tuple[float, float] | None = None
    # Where the error figures come from (model's `erro_medio_esperado.fonte`, model/bands.py
    # FONTES_ERRO): band measured ("backtest") or the seed's ("metodo_original"); what the expected
    # error rests on ("testes", "metade_da_faixa"); the partial's curve, if any. None: older output.
    fonte_faixa: str | None = None
    fonte_erro_projecao: str | None = None
    fonte_erro_parcial: str | None = None

    @property
    def apuracao_concluida(self) -> bool:
        """Every voter's section is totalized in this reading: the count cannot advance any more."""
        total, totalizado = self.parcial_eleitorado, self.parcial_totalizado
        return bool(total) and totalizado is not None and totalizado >= (total or 0)

    def candidato(self, numero: int) -> CandidatoProjetado | None:
        """The candidate with this ballot number, if present."""
        return next((c for c in self.candidatos if c.numero == numero), None)

    def principais(self) -> tuple[CandidatoProjetado, ...]:
        """The two leading candidates (by projection), leader first."""
        ranked = sorted(self.candidatos, key=lambda c: (-c.pct, -c.votos, c.numero))
        return tuple(ranked[:2])

    def votos_por_estrato(self) -> list[StratumVotes]:
        """The strata as the overtaking arithmetic reads them."""
        return [StratumVotes(e.validos, e.restantes, dict(e.projetados)) for e in self.estratos]


def _field(obj: Any, key: str, where: str) -> Any:
    if not isinstance(obj, dict) or key not in obj:
        raise SaidaInvalidaError(f"falta o campo '{where}{key}'")
    return obj[key]


def _optional(obj: Any, key: str) -> Any:
    return obj.get(key) if isinstance(obj, dict) else None


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _float(obj: Any, key: str, where: str) -> float:
    value = _field(obj, key, where)
    if not _is_number(value):
        raise SaidaInvalidaError(f"o campo '{where}{key}' deveria ser um número")
    return float(value)


def _opt_float(obj: Any, key: str, where: str) -> float | None:
    value = _optional(obj, key)
    if value is None:
        return None
    if not _is_number(value):
        raise SaidaInvalidaError(f"o campo '{where}{key}' deveria ser um número")
    return float(value)


def _int(obj: Any, key: str, where: str) -> int:
    value = _field(obj, key, where)
    if isinstance(value, bool) or not isinstance(value, int):
        raise SaidaInvalidaError(f"o campo '{where}{key}' deveria ser um número inteiro")
    return value


def _opt_int(obj: Any, key: str, where: str) -> int | None:
    if _optional(obj, key) is None:
        return None
    return _int(obj, key, where)


def _str(obj: Any, key: str, where: str) -> str:
    value = _field(obj, key, where)
    if not isinstance(value, str):
        raise SaidaInvalidaError(f"o campo '{where}{key}' deveria ser um texto")
    return value


def _opt_str(obj: Any, key: str) -> str | None:
    value = _optional(obj, key)
    return value if isinstance(value, str) and value else None


def _bool(obj: Any, key: str, where: str) -> bool:
    value = _field(obj, key, where)
    if not isinstance(value, bool):
        raise SaidaInvalidaError(f"o campo '{where}{key}' deveria ser verdadeiro ou falso")
    return value


def _list(obj: Any, key: str, where: str) -> list[Any]:
    value = _field(obj, key, where)
    if not isinstance(value, list):
        raise SaidaInvalidaError(f"o campo '{where}{key}' deveria ser uma lista")
    return value


def _time(value: Any) -> dt.datetime | None:
    if not isinstance(value, str):
        return None
    try:
        parsed = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed if parsed.tzinfo else None


def _criterio(raw: Any) -> Criterio:
    w = "criterios[]."
    return Criterio(
        id=_str(raw, "id", w),
        descricao=_opt_str(raw, "descricao") or _str(raw, "id", w),
        ok=_bool(raw, "ok", w),
        valor=_opt_float(raw, "valor", w),
        limite=_opt_float(raw, "limite", w),
        unidade=_opt_str(raw, "unidade") or "",
        nota=_opt_str(raw, "nota"),
    )


def _estrato(raw: Any) -> Estrato:
    w = "estratos[]."
    cands = _field(raw, "candidatos", w)
    if not isinstance(cands, dict):
        raise SaidaInvalidaError("o campo 'estratos[].candidatos' deveria ser um objeto")
    projetados: list[tuple[int, int]] = []
    for key, votes in cands.items():
        if not key.isdigit() or isinstance(votes, bool) or not isinstance(votes, int):
            raise SaidaInvalidaError("votos projetados inválidos em 'estratos[].candidatos'")
        projetados.append((int(key), votes))
    return Estrato(
        id=_str(raw, "id", w),
        arquivo=_opt_str(raw, "arquivo"),
        valido=_optional(raw, "valido") is not False,
        motivo=_opt_str(raw, "motivo"),
        preservado=_optional(raw, "preservado") is True,
        secoes_pct=_opt_float(raw, "secoes_pct", w),
        eleitorado=_opt_int(raw, "eleitorado", w),
        eleitorado_totalizado=_int(raw, "eleitorado_totalizado", w),
        validos=_int(raw, "validos", w),
        restantes=_int(raw, "validos_restantes_estimados", w),
        base=_str(raw, "base", w),
        projetados=tuple(sorted(projetados)),
    )


def _candidato(numero: int, parcial: Any, forecast: Any) -> CandidatoProjetado:
    wp, wf = "parcial.candidatos[].", "forecast.candidatos[]."
    pct = _float(forecast, "pct", wf)
    faixa = _float(forecast, "faixa", wf)
    intervalo = _optional(forecast, "intervalo")
    if intervalo is None:
        lo, hi = max(pct - faixa, 0.0), min(pct + faixa, 100.0)
    elif isinstance(intervalo, list) and len(intervalo) == 2 and all(_is_number(x) for x in intervalo):
        lo, hi = float(intervalo[0]), float(intervalo[1])
    else:
        raise SaidaInvalidaError(f"o campo '{wf}intervalo' deveria ter dois números")
    return CandidatoProjetado(
        numero=numero,
        nome=_opt_str(forecast, "nome") or _opt_str(parcial, "nome") or f"Candidato {numero}",
        votos=_int(parcial, "votos", wp),
        parcial_pct=_float(parcial, "pct", wp),
        pct=pct,
        sem_correcao=_opt_float(forecast, "sem_correcao", wf) or pct,
        faixa=faixa,
        intervalo=(lo, hi),
        votos_projetados=_int(forecast, "votos_projetados", wf),
    )


def parse_saida(data: bytes) -> Leitura:
    """Read one `saida.json`; raise SaidaInvalidaError (Portuguese message) when it cannot be shown."""
    try:
        root = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise SaidaInvalidaError("o arquivo não está em UTF-8") from exc
    except ValueError as exc:
        raise SaidaInvalidaError(f"JSON inválido ({exc})") from exc
    if not isinstance(root, dict):
        raise SaidaInvalidaError("o JSON deveria ser um objeto")
    modelo = _field(root, "modelo", "")
    parcial = _field(root, "parcial", "")
    forecast = _field(root, "forecast", "")
    by_number: dict[int, dict[str, Any]] = {}
    for raw in _list(parcial, "candidatos", "parcial."):
        by_number.setdefault(_int(raw, "numero", "parcial.candidatos[]."), {})["parcial"] = raw
    for raw in _list(forecast, "candidatos", "forecast."):
        by_number.setdefault(_int(raw, "numero", "forecast.candidatos[]."), {})["forecast"] = raw
    candidatos = []
    for numero, both in sorted(by_number.items()):
        if "parcial" not in both or "forecast" not in both:
            raise SaidaInvalidaError(f"o candidato {numero} não está na parcial e na projeção ao mesmo tempo")
        candidatos.append(_candidato(numero, both["parcial"], both["forecast"]))
    tendencia = _field(forecast, "tendencia", "forecast.")
    if isinstance(tendencia, bool) or not isinstance(tendencia, int | str):
        raise SaidaInvalidaError("o campo 'forecast.tendencia' deveria ser um número ou 'indefinido'")
    erro = _field(forecast, "erro_medio_esperado", "forecast.")
    entre = _optional(forecast, "margem_entre") or []
    return Leitura(
        versao=_str(modelo, "versao", "modelo."),
        calibracao=_str(modelo, "calibracao", "modelo."),
        calibracao_sha256=_str(modelo, "calibracao_sha256", "modelo."),
        eleicao=_str(root, "eleicao", ""),
        cargo=_str(root, "cargo", ""),
        uf=_str(root, "uf", ""),
        turno=_int(root, "turno", ""),
        modo=_str(root, "modo", ""),
        degradado=_optional(root, "degradado") is True,
        demonstracao=_optional(root, "demonstracao") is True,
        agora=_time(_optional(root, "agora")),
        apurado_pct=_float(root, "apurado_pct", ""),
        confianca=_str(root, "confianca", ""),
        publicavel=_bool(root, "publicavel", ""),
        criterios=tuple(_criterio(c) for c in _list(root, "criterios", "")),
        nao_atendidos=tuple(str(c) for c in _list(root, "criterios_nao_atendidos", "")),
        parcial_fonte=_opt_str(parcial, "fonte") or "",
        parcial_eleitorado=_opt_int(parcial, "eleitorado", "parcial."),
        parcial_totalizado=_opt_int(parcial, "eleitorado_totalizado", "parcial."),
        parcial_validos=_opt_int(parcial, "validos", "parcial.") or sum(c.votos for c in candidatos),
        candidatos=tuple(candidatos),
        correcao_pp=_opt_float(forecast, "correcao_pp", "forecast.") or 0.0,
        correcao_candidato=_opt_int(forecast, "correcao_candidato", "forecast."),
        margem=_opt_float(forecast, "margem", "forecast."),
        margem_entre=tuple(x for x in entre if isinstance(x, int) and not isinstance(x, bool)),
        faixa_margem=_float(forecast, "faixa_margem", "forecast."),
        tendencia=tendencia if isinstance(tendencia, int) else None,
        definido_matematicamente=_bool(forecast, "definido_matematicamente", "forecast."),
        erro_projecao=_float(erro, "projecao", "forecast.erro_medio_esperado."),
        erro_parcial=_float(erro, "parcial", "forecast.erro_medio_esperado."),
        validos_projetados=_opt_int(forecast, "validos_projetados", "forecast.") or 0,
        estratos=tuple(_estrato(e) for e in _list(root, "estratos", "")),
        **_verificacao(_optional(root, "verificacao_deriva")),
        **_fonte_erro(_optional(erro, "fonte")),
    )


def _fonte_erro(raw: Any) -> dict[str, Any]:
    """Where the reading's error figures come from (absent in outputs older than issue 23)."""
    if not isinstance(raw, dict):
        return {}
    return {
        "fonte_faixa": _opt_str(raw, "faixa"),
        "fonte_erro_projecao": _opt_str(raw, "projecao"),
        "fonte_erro_parcial": _opt_str(raw, "parcial"),
    }


def _verificacao(raw: Any) -> dict[str, Any]:
    """The live drift check's outcome (absent in outputs older than the check)."""
    if not isinstance(raw, dict) or raw.get("estado") != "fora":
        return {}
    faixa = raw.get("faixa_tolerada")
    limites = None
    if isinstance(faixa, list) and len(faixa) == 2 and all(isinstance(x, int | float) for x in faixa):
        limites = (float(faixa[0]), float(faixa[1]))
    razao = raw.get("razao_observada")
    return {
        "deriva_fora": True,
        "deriva_razao": float(razao) if isinstance(razao, int | float) else None,
        "deriva_faixa": limites,
    }


@dataclass(frozen=True)
class Arquivo:
    """One file of a capture, published byte for byte in the history."""

    nome: str
    caminho: str  # source, relative to the project root
    sha256: str
    tamanho: int


@dataclass(frozen=True)
class CandidatoResumo:
    """One candidate in the summary of a reading (what the chart and the history need)."""

    numero: int
    nome: str
    parcial_pct: float
    pct: float
    faixa_min: float
    faixa_max: float


@dataclass(frozen=True)
class Resumo:
    """The small part of a `saida.json` kept for every capture of the night (in the build cache)."""

    eleicao: str
    cargo: str
    uf: str
    agora: dt.datetime | None
    apurado_pct: float
    publicavel: bool
    nao_atendidos: tuple[str, ...]
    candidatos: tuple[CandidatoResumo, ...]
    demonstracao: bool = False
    faltou: tuple[str, ...] = ()  # the unmet criteria by name (the model's rule descriptions)


def summarise(leitura: Leitura) -> Resumo:
    """The summary of a reading kept for every capture."""
    by_id = {c.id: c.descricao for c in leitura.criterios}
    return Resumo(
        eleicao=leitura.eleicao,
        cargo=leitura.cargo,
        uf=leitura.uf,
        agora=leitura.agora,
        apurado_pct=leitura.apurado_pct,
        publicavel=leitura.publicavel,
        nao_atendidos=leitura.nao_atendidos,
        demonstracao=leitura.demonstracao,
        faltou=tuple(by_id.get(cid, cid) for cid in leitura.nao_atendidos),
        candidatos=tuple(
            CandidatoResumo(c.numero, c.nome, c.parcial_pct, c.pct, c.intervalo[0], c.intervalo[1])
            for c in leitura.candidatos
        ),
    )


@dataclass(frozen=True)
class Captura:
    """One stored reading of a race."""

    nome: str  # folder name: the UTC time of the capture
    saida_sha256: str
    resumo: Resumo
    arquivos: tuple[Arquivo, ...]  # every file of the folder, by name (saida.json included)
    simulado: bool = False  # the TSE files say "f": "s": a simulated night (demo), not an election
    commit: str | None = None  # the model code's commit, as the poller recorded it in captura.json
    sem_assinatura: int = 0  # readings used without a verified `.jws` (captura.json "assinatura")

    @property
    def instante(self) -> dt.datetime:
        """The capture time (UTC), from the folder name."""
        return dt.datetime.strptime(self.nome, "%Y-%m-%dT%H-%M-%SZ").replace(tzinfo=dt.UTC)

    @property
    def hora(self) -> dt.datetime:
        """The reading's 'now' (the model's `agora`), else the capture time."""
        return self.resumo.agora or self.instante


@dataclass(frozen=True)
class Corrida:
    """One race followed on election night (president, or one state's governor runoff)."""

    id: str  # "<eleicao>-<race folder>", e.g. "6258-presidente": the race's stable URL segment
    eleicao: str
    pasta: str  # "presidente" | "governador-<uf>"
    cargo: str  # "presidente" | "governador"
    uf: str | None
    raiz: str  # project root the sources were read from (their paths are relative to it)
    capturas: tuple[Captura, ...]  # readable ones, oldest first, up to the `latest` pointer
    atual: Leitura  # the newest readable output
    publicavel: Leitura | None  # the newest publishable output (`atual` itself when publishable)
    publicavel_captura: Captura | None
    municipios: dict[str, str] = dataclasses.field(default_factory=dict)  # part id -> "Vitória (ES)"

    @property
    def url(self) -> str:
        """The race's page."""
        return f"{SECTION_URL}{self.id}/"

    @property
    def historico_url(self) -> str:
        """The list of every stored reading."""
        return f"{self.url}capturas/"

    @property
    def api_url(self) -> str:
        """The latest output as JSON (its `saida.json` keys plus `ultima_publicavel`)."""
        return f"/api/projecao/{self.id}.json"

    @property
    def demonstracao(self) -> bool:
        """A simulated night (demo): every page of the race says so."""
        return self.ultima.simulado

    @property
    def ultima(self) -> Captura:
        """The newest readable capture (the one `atual` comes from)."""
        return self.capturas[-1]

    @property
    def dados(self) -> str:
        """Folder of the race in the data repository."""
        return f"{TSE_DIR}/{self.eleicao}/{self.pasta}"

    @property
    def nome_cargo(self) -> str:
        """'Presidente' or 'Governador do Pará'."""
        if self.cargo == "presidente":
            return "Presidente"
        return f"Governador {UF_NOMES.get(self.uf or '', (self.uf or '').upper())}"

    @property
    def titulo(self) -> str:
        """'Presidente, 2º turno de 2026'."""
        return f"{self.nome_cargo}, {self.atual.turno}º turno de {self.ultima.instante.year}"

    def captura_url(self, captura: Captura) -> str:
        """Page of one stored reading, with its files."""
        return f"{self.historico_url}{captura.nome}/"

    def anterior(self, captura: Captura) -> Captura | None:
        """The reading stored just before `captura`, if any."""
        index = self.capturas.index(captura)
        return self.capturas[index - 1] if index > 0 else None


# Lower-case joining words of Brazilian names ("Maria das Dores", "José da Silva e Souza").
PARTICULAS = frozenset({"da", "das", "de", "do", "dos", "e"})


def _name_key(nome: str) -> str:
    plain = "".join(ch for ch in unicodedata.normalize("NFKD", nome) if not unicodedata.combining(ch))
    return " ".join(plain.casefold().split())


def _title(nome: str) -> str:
    words = nome.lower().split()
    return " ".join(w if i and w in PARTICULAS else w[:1].upper() + w[1:] for i, w in enumerate(words))


def display_names(nomes: Iterable[str]) -> Callable[[str], str]:
    """How a TSE name (`HELENA PRADO`) is shown: as the candidate file writes it (`Helena Prado`)
    when one of `nomes` matches it ignoring case and accents, else in title case, never in capitals."""
    by_key = {_name_key(n): n for n in nomes}
    return lambda nome: by_key.get(_name_key(nome)) or _title(nome)


def renamed_reading(leitura: Leitura, nome: Callable[[str], str]) -> Leitura:
    """The reading with every candidate's display name."""
    cands = tuple(dataclasses.replace(c, nome=nome(c.nome)) for c in leitura.candidatos)
    return dataclasses.replace(leitura, candidatos=cands)


def renamed_capture(captura: Captura, nome: Callable[[str], str]) -> Captura:
    """The capture with every candidate's display name in its summary."""
    cands = tuple(dataclasses.replace(c, nome=nome(c.nome)) for c in captura.resumo.candidatos)
    return dataclasses.replace(captura, resumo=dataclasses.replace(captura.resumo, candidatos=cands))


def municipality_names(data: bytes) -> dict[str, str]:
    """{part id (`es56006`): "Vitória (ES)"} from a TSE `mun-e<ele>-cm.json` (EA12); {} when unreadable."""
    try:
        root = json.loads(data)
    except (ValueError, UnicodeDecodeError):
        return {}
    out: dict[str, str] = {}
    grupos = root.get("abr") if isinstance(root, dict) else None
    for grupo in grupos if isinstance(grupos, list) else []:
        if not isinstance(grupo, dict) or not isinstance(grupo.get("mu"), list):
            continue
        uf = str(grupo.get("cd", "")).lower()
        for m in grupo["mu"]:
            if isinstance(m, dict) and str(m.get("cd", "")).isdigit() and isinstance(m.get("nm"), str):
                lugar = "exterior" if uf == "zz" else uf.upper()
                out[uf + str(m["cd"]).zfill(5)] = f"{_title(m['nm'])} ({lugar})"
    return out
