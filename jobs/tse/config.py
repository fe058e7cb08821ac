"""The `[tse]` section of `eleicoes.toml`: where the TSE is, what to poll, how fast, where to write.

An empty section works: the defaults poll the real TSE host for the 2026 runoff (president 6258 by
UF; governor 6260 by municipality in AC, AM, ES, RJ, RN, TO and by zone in DF), at 20 requests/s
(the TSE blocks an IP above 100/s), and write snapshots under `data/`.
"""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from jobs.configuracao import CONFIG_FILE, ler_secao

# TSE production key (JWK served at /oficial/app/assets/assinatura-jws/prod.jwk.json; TSE-FORMAT.md §1.4).
TSE_KID = "sNbt9Q_fLS65zE1_ZLNV-XRRwPY"
TSE_X = "kWlpNHjuws1csyQZwzn3Fhzbi3RD435RbpThtSr4hMc"

# SHA-256 of model/calibracao.json frozen for the night; eleicoes.toml repeats it so a change is visible.
PINNED_CALIBRATION = "b0d49e9dbfb62ca29bbdd4bf5ecb10804c829366c8e82cfe14f189434dc8f4f9"

# Some CDN edges reject clients without a browser-like User-Agent (TSE-FORMAT.md §1.4).
BROWSER_USER_AGENT = (
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36"
)

# The TSE blocks an IP for 10 minutes above 100 requests/s (a 304 counts): keep any second under 90.
TSE_DOMAIN = "tse.jus.br"
TSE_MAX_PER_SECOND = 90

CARGOS = {"presidente": 1, "governador": 3}
NIVEIS = ("uf", "municipio", "zona")
MODOS_JWS = ("verificar", "exigir", "ignorar")
RELOGIOS = ("local", "servidor")
UFS = (
    "ac", "al", "am", "ap", "ba", "ce", "df", "es", "go", "ma", "mg", "ms", "mt", "pa",
    "pb", "pe", "pi", "pr", "rj", "rn", "ro", "rr", "rs", "sc", "se", "sp", "to",
)  # fmt: skip


# Election codes: ASCII digits only (`str.isdigit` accepts "²"), 6 at most (the file names pad to 6).
ELEICAO = re.compile(r"[0-9]{1,6}")
# A plain path segment (`ambiente`, `ciclo`, a literal part of a URL template): no dots, slashes,
# `@`, `%` or `:`.
SEGMENT = re.compile(r"[A-Za-z0-9_-]{1,64}")


def _base_ok(url: str) -> None:
    """ValueError unless `url` is a plain http(s) base: a host, no user info, query or fragment."""
    u = urllib.parse.urlsplit(url)
    _ = u.port  # ValueError on a bad port
    if not u.hostname or "@" in u.netloc or u.query or u.fragment:
        raise ValueError("deve ser só esquema, host, porta e caminho (sem usuário, ? ou #)")
    if any(SEGMENT.fullmatch(p) is None for p in u.path.split("/")[1:]):
        raise ValueError(f"caminho com segmento inválido: {u.path!r}")


class TseConfigError(ValueError):
    """A `[tse]` section that cannot be used; the message is in Portuguese."""


@dataclass(frozen=True)
class Corrida:
    """One race followed on the night: its TSE election code, cargo, UF and the level of its parts."""

    cargo: str  # "presidente" | "governador"
    eleicao: str  # TSE code without padding, e.g. "6258"
    uf: str  # "br" for the president, the lower-case UF for a governor
    nivel: str  # "uf" (president by UF; governor degraded), "municipio" or "zona"

    @property
    def codigo_cargo(self) -> int:
        """TSE cargo code (0001 president, 0003 governor)."""
        return CARGOS[self.cargo]

    @property
    def pasta(self) -> str:
        """Race folder name (PINS.md): `presidente` or `governador-<uf>`."""
        return "presidente" if self.cargo == "presidente" else f"governador-{self.uf}"

    @property
    def rotulo(self) -> str:
        """Short label for log lines."""
        return f"{self.pasta} {self.eleicao}"


DEFAULT_RACES = (
    Corrida("presidente", "6258", "br", "uf"),
    *(Corrida("governador", "6260", uf, "municipio") for uf in ("ac", "am", "es", "rj", "rn", "to")),
    Corrida("governador", "6260", "df", "zona"),
)


@dataclass(frozen=True)
class ConfigTse:
    """Typed `[tse]`. Paths are relative to the project root unless absolute."""

    url_base: str = "https://resultados.tse.jus.br"
    ambiente: str = "oficial"
    ciclo: str = "ele2026"
    corridas: tuple[Corrida, ...] = DEFAULT_RACES
    requisicoes_por_segundo: float = 20.0  # global cap, all races and threads together
    rajada: int = 20  # token-bucket size: at most rajada + requisicoes_por_segundo requests in any second
    conexoes: int = 8  # parallel requests (the cap still holds)
    tempo_limite_s: float = 10.0  # per socket read (connect, each chunk)
    prazo_total_s: float = 20.0  # whole request (headers + body): a dripping server is cut here
    prazo_ciclo_s: float = 240.0  # whole cycle (under the seed's 5-min file age): later parts not answered
    tamanho_maximo_mb: float = 8.0  # decoded body cap (the largest real config file is ~0.5 MB)
    tentativas: int = 3
    espera_inicial_s: float = 0.5  # backoff: doubles at each new try
    intervalo_s: float = 30.0  # seconds between cycles of `poll` (the CDN caches ~60 s)
    catalogo_intervalo_s: float = 600.0  # how often ele-c.json / mun-...-cm.json are rechecked
    reconferir_ciclos: int = 3  # municipal mode: cycles to refetch a part whose coverage moved first
    user_agent: str = BROWSER_USER_AGENT
    jws: str = "verificar"  # verificar | exigir | ignorar
    jws_kid: str = TSE_KID
    jws_x: str = TSE_X
    calibracao_sha256: str = PINNED_CALIBRATION
    corrigir_deriva: bool = True  # False = the seed's mode presidente_sem_correcao
    pasta_dados: Path = Path("data")
    git: bool = True
    repositorio_git: Path = Path("data")
    git_autor: str = "eleicoes-tse <tse@eleicoes.invalid>"
    relogio: str = "local"  # "servidor": use the HTTP Date header (replays of past nights)
    raiz: Path = field(default=Path(), compare=False)  # project root the relative paths hang from

    def caminho(self, p: Path) -> Path:
        """A configured path resolved against the project root."""
        return p if p.is_absolute() else self.raiz / p

    @property
    def tamanho_maximo(self) -> int:
        """Decoded body cap in bytes."""
        return int(self.tamanho_maximo_mb * 1024 * 1024)

    @property
    def dados(self) -> Path:
        """Resolved data folder."""
        return self.caminho(self.pasta_dados)

    @property
    def repositorio(self) -> Path:
        """Resolved git repository folder."""
        return self.caminho(self.repositorio_git)

    def com(self, **mudancas: Any) -> ConfigTse:
        """A copy with some fields changed (command-line overrides, tests)."""
        return replace(self, **mudancas)


def _texto(chave: str, valor: Any) -> str:
    if not isinstance(valor, str) or not valor.strip():
        raise TseConfigError(f"[tse] {chave}: deve ser um texto não vazio, não {valor!r}")
    return valor.strip()


def _numero(chave: str, valor: Any, minimo: float, maximo: float | None = None) -> float:
    if isinstance(valor, bool) or not isinstance(valor, int | float):
        raise TseConfigError(f"[tse] {chave}: deve ser um número, não {valor!r}")
    if valor < minimo or (maximo is not None and valor > maximo):
        faixa = f"entre {minimo} e {maximo}" if maximo is not None else f"pelo menos {minimo}"
        raise TseConfigError(f"[tse] {chave}: deve ser {faixa}, não {valor!r}")
    return float(valor)


def _inteiro(chave: str, valor: Any, minimo: int) -> int:
    if isinstance(valor, bool) or not isinstance(valor, int):
        raise TseConfigError(f"[tse] {chave}: deve ser um número inteiro, não {valor!r}")
    if valor < minimo:
        raise TseConfigError(f"[tse] {chave}: deve ser pelo menos {minimo}, não {valor!r}")
    return valor


def _booleano(chave: str, valor: Any) -> bool:
    if not isinstance(valor, bool):
        raise TseConfigError(f"[tse] {chave}: deve ser true ou false, não {valor!r}")
    return valor


def _escolha(chave: str, valor: Any, opcoes: tuple[str, ...]) -> str:
    texto = _texto(chave, valor)
    if texto not in opcoes:
        raise TseConfigError(f"[tse] {chave}: {texto!r} não existe; use um de {list(opcoes)}")
    return texto


def _corridas(valor: Any) -> tuple[Corrida, ...]:
    if not isinstance(valor, list) or not valor:
        raise TseConfigError("[tse] corridas: deve ser uma lista não vazia de tabelas [[tse.corridas]]")
    out: list[Corrida] = []
    for i, item in enumerate(valor, 1):
        onde = f"[[tse.corridas]] nº {i}"
        if not isinstance(item, dict):
            raise TseConfigError(f"{onde}: deve ser uma tabela")
        extras = sorted(set(item) - {"cargo", "eleicao", "uf", "ufs", "nivel"})
        if extras:
            raise TseConfigError(f"{onde}: chave desconhecida {extras[0]!r}")
        cargo = item.get("cargo")
        if cargo not in CARGOS:
            raise TseConfigError(f"{onde}: cargo deve ser 'presidente' ou 'governador', não {cargo!r}")
        eleicao = item.get("eleicao")
        if isinstance(eleicao, int) and not isinstance(eleicao, bool):
            eleicao = str(eleicao)
        if not isinstance(eleicao, str) or ELEICAO.fullmatch(eleicao.strip()) is None:
            raise TseConfigError(f'{onde}: eleicao deve ser o código do TSE (ex.: "6258"), não {eleicao!r}')
        eleicao = str(int(eleicao))
        nivel = item.get("nivel", "uf" if cargo == "presidente" else "municipio")
        if nivel not in NIVEIS:
            raise TseConfigError(f"{onde}: nivel deve ser um de {list(NIVEIS)}, não {nivel!r}")
        if cargo == "presidente":
            if nivel == "zona":
                raise TseConfigError(f"{onde}: presidente por zona não é suportado; use 'uf' ou 'municipio'")
            out.append(Corrida(cargo, eleicao, "br", nivel))
            continue
        ufs = item.get("ufs", [item["uf"]] if "uf" in item else None)
        if not isinstance(ufs, list) or not ufs:
            raise TseConfigError(f'{onde}: governador precisa de uf = "ac" ou ufs = ["ac", ...]')
        for uf in ufs:
            if not isinstance(uf, str) or uf.lower() not in UFS:
                raise TseConfigError(f"{onde}: UF desconhecida {uf!r}")
            out.append(Corrida(cargo, eleicao, uf.lower(), nivel))
    pastas = [(c.eleicao, c.pasta) for c in out]
    if len(set(pastas)) != len(pastas):
        raise TseConfigError("[tse] corridas: a mesma corrida aparece duas vezes")
    return tuple(out)


def config_tse(raw: Mapping[str, Any], raiz: Path = Path()) -> ConfigTse:
    """Validate a raw `[tse]` table into ConfigTse; TseConfigError (Portuguese) on any problem."""
    conhecidas = {f.name for f in fields(ConfigTse)} - {"raiz"}
    desconhecidas = sorted(set(raw) - conhecidas)
    if desconhecidas:
        raise TseConfigError(f"[tse]: chave desconhecida {desconhecidas[0]!r}; aceitas: {sorted(conhecidas)}")
    base = ConfigTse()
    v: dict[str, Any] = {"raiz": raiz}
    for chave in ("url_base", "ambiente", "ciclo", "user_agent", "jws_kid", "jws_x", "git_autor"):
        if chave in raw:
            v[chave] = _texto(chave, raw[chave])
    url = v.get("url_base", base.url_base).rstrip("/")
    if not url.startswith(("http://", "https://")):
        raise TseConfigError(f"[tse] url_base: deve começar com http:// ou https://, não {url!r}")
    try:
        _base_ok(url)
    except ValueError as exc:
        raise TseConfigError(f"[tse] url_base: {exc}") from exc
    v["url_base"] = url
    for chave in ("ambiente", "ciclo"):
        # One plain path segment each: they become part of every URL (never "..", "@", "/").
        if chave in v and SEGMENT.fullmatch(v[chave]) is None:
            raise TseConfigError(
                f"[tse] {chave}: deve ser um nome simples (letras, dígitos, - e _), não {v[chave]!r}"
            )
    if "corridas" in raw:
        v["corridas"] = _corridas(raw["corridas"])
    if "requisicoes_por_segundo" in raw:
        v["requisicoes_por_segundo"] = _numero(
            "requisicoes_por_segundo", raw["requisicoes_por_segundo"], 0.1, 1000.0
        )
    for chave, minimo in (("rajada", 1), ("conexoes", 1), ("tentativas", 1), ("reconferir_ciclos", 0)):
        if chave in raw:
            v[chave] = _inteiro(chave, raw[chave], minimo)
    for chave, piso in (
        ("tempo_limite_s", 0.01),
        ("espera_inicial_s", 0.0),
        ("intervalo_s", 0.0),
        ("catalogo_intervalo_s", 0.0),
        ("prazo_total_s", 0.01),
        ("prazo_ciclo_s", 0.01),
        ("tamanho_maximo_mb", 0.001),
    ):
        if chave in raw:
            v[chave] = _numero(chave, raw[chave], piso)
    if "jws" in raw:
        v["jws"] = _escolha("jws", raw["jws"], MODOS_JWS)
    if "relogio" in raw:
        v["relogio"] = _escolha("relogio", raw["relogio"], RELOGIOS)
    for chave in ("git", "corrigir_deriva"):
        if chave in raw:
            v[chave] = _booleano(chave, raw[chave])
    for chave in ("pasta_dados", "repositorio_git"):
        if chave in raw:
            v[chave] = Path(_texto(chave, raw[chave]))
    if "calibracao_sha256" in raw:
        sha = _texto("calibracao_sha256", raw["calibracao_sha256"]).lower()
        if len(sha) != 64 or any(ch not in "0123456789abcdef" for ch in sha):
            raise TseConfigError(f"[tse] calibracao_sha256: deve ter 64 dígitos hexadecimais, não {sha!r}")
        v["calibracao_sha256"] = sha
    cfg = ConfigTse(**v)
    host = urllib.parse.urlsplit(cfg.url_base).hostname or ""
    if host.endswith(TSE_DOMAIN) and cfg.requisicoes_por_segundo + cfg.rajada > TSE_MAX_PER_SECOND:
        raise TseConfigError(
            f"[tse] requisicoes_por_segundo + rajada = {cfg.requisicoes_por_segundo + cfg.rajada:g} "
            f"passa de {TSE_MAX_PER_SECOND} por segundo: o TSE bloqueia o IP por 10 minutos acima de "
            "100 requisições/s"
        )
    return cfg


def carregar_config_tse(caminho: Path = CONFIG_FILE) -> ConfigTse:
    """`[tse]` of the configuration file (defaults when absent), paths relative to the file's folder."""
    return config_tse(ler_secao("tse", caminho, TseConfigError), raiz=caminho.resolve().parent)
