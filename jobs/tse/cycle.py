"""One polling cycle: ask the TSE for what may have changed, keep every reading, project, snapshot.

`run_cycle(config, state)` is what `eleicoes tse poll` and the scheduler call. For each race it
builds the file list from the catalogue, fetches (coverage first in municipal mode), verifies the
`.jws` twins, keeps the previous reading of any part the TSE did not answer (marked
`"preservado": true`), and, only when something the model reads changed, writes a snapshot with
`saida.json`, moves `latest` and commits it. An unchanged cycle writes nothing.

"New data" is decided from the counts and `dt/ht` of a file (`data_key`), never from its bytes,
ETag or `dg/hg`/`idg`: the TSE regenerates every file at every cycle, finished or not
(docs/NOITE.md). A regenerated file with nothing new is not a new reading, but its fresh bytes are
what the model reads from then on (its `hg` is the file-age evidence), and they are the bytes the
next snapshot stores.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import json
import sys
import time
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jobs.tse.agenda_municipal import Agenda, ParteMunicipal, advanced_ufs, budget, plan_fetch
from jobs.tse.catalog import (
    Arquivo,
    CatalogError,
    Catalogo,
    Municipio,
    PlanoCorrida,
    catalogue_url,
    check_race,
    municipalities_url,
    parse_catalogue,
    parse_municipalities,
    race_plan,
)
from jobs.tse.client import Pedido, Resposta, TseClient
from jobs.tse.config import ConfigTse, Corrida
from jobs.tse.coverage import CoverageError, parse_coverage_file
from jobs.tse.degradado import degradable, degraded_capture, none_published, probe_due
from jobs.tse.gitlog import (
    GitError,
    commit_paths,
    is_repository_root,
    model_commit,
    pending_paths,
    recover_stale_locks,
)
from jobs.tse.jws import ChaveTse, SignatureError, key_from_jwk, verify_jws
from jobs.tse.projection import ArgsProjecao, args_for, project_folder, project_snapshot
from jobs.tse.store import (
    CAPTURE_FILE,
    OUTPUT_FILE,
    REJECTED_DIR,
    Conteudo,
    capture_json_bytes,
    clean_staging,
    next_capture_name,
    race_dir,
    read_latest,
    write_snapshot,
)
from jobs.tse.validacao import is_member
from model import VERSION
from model.baselines import Baseline, load_baselines
from model.calibration import Calibration, CalibrationError, load_calibration
from model.criteria import GOVERNOR_RULES
from model.forecast import ProjectionError, prepare_race, read_file
from model.snapshot import (
    COVERAGE_NAME,
    CaptureEntry,
    Snapshot,
    SnapshotError,
    parse_capture,
    parse_iso,
    read_output,
    read_snapshot,
)
from model.strata import UFS_PRESIDENTE
from model.tse_files import FILE_NAME, ResultRecord, TseFormatError, load_json, parse_file_name, parse_result

Relogio = Callable[[], dt.datetime]


class TseError(RuntimeError):
    """The job cannot run at all (Portuguese message): e.g. the calibration is not the pinned one."""


def _utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def _iso(t: dt.datetime) -> str:
    return t.astimezone(dt.UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# What the model reads of a capture, per file (see `signature`).
Assinatura = tuple[tuple[str, str | None, Any, bool, tuple[tuple[str, str], ...]], ...]


def _counts(r: ResultRecord) -> tuple[Any, ...]:
    return (
        r.eleicao, r.turno, r.cargo, r.tpabr, r.cdabr, r.simulado, r.totalizado_local,
        r.secoes, r.secoes_totalizadas, r.eleitorado, r.eleitorado_totalizado,
        r.votos_totais, r.vvc, r.vv, r.van, r.vansj, r.vb, r.vn, r.vnt,
        tuple((c.numero, c.votos, c.valido) for c in r.candidatos),
    )  # fmt: skip


def data_key(nome: str, corpo: bytes | None) -> str | None:
    """What "new data" means for a TSE result file: a hash of its counts (sections, electorate,
    every vote total, each candidate's votes) and `dt/ht`, the moment the TSE last totalized it.

    Never the bytes, the ETag or the generation stamp (`dg/hg`, `idg`): the TSE regenerates every
    file at every cycle, so those change when nothing else did (docs/NOITE.md). A body the model
    cannot parse is keyed by its bytes (it is refused before it counts anyway)."""
    if corpo is None:
        return None
    nome_tse = parse_file_name(nome)
    try:
        registros = parse_result(corpo, nome_tse.formato if nome_tse is not None else "u")
    except ValueError:  # TseFormatError included
        return "bytes:" + _sha256(corpo)
    contagens = [_counts(r) for r in registros]
    return "dados:" + _sha256(repr(contagens).encode("utf-8"))


def generation(nome: str, corpo: bytes | None) -> tuple[dt.datetime | None, bool]:
    """(`dg/hg` of a result file, whether any of its parts is still counting: `st < ts`);
    (None, False) for a body the model cannot parse."""
    gerado_em, contando, _ = reading_facts(nome, corpo)
    return gerado_em, contando


def reading_facts(nome: str, corpo: bytes | None) -> tuple[dt.datetime | None, bool, int]:
    """`generation` plus the electorate not yet totalized (`te − est`, summed over its parts);
    (None, False, 0) for a body the model cannot parse."""
    return key_and_facts(nome, corpo)[1]


def key_and_facts(nome: str, corpo: bytes | None) -> tuple[str | None, tuple[dt.datetime | None, bool, int]]:
    """`data_key` and `reading_facts` of one body, parsed once (a municipal cycle holds thousands)."""
    if corpo is None:
        return None, (None, False, 0)
    nome_tse = parse_file_name(nome)
    try:
        registros = parse_result(corpo, nome_tse.formato if nome_tse is not None else "u")
    except ValueError:  # TseFormatError included
        return "bytes:" + _sha256(corpo), (None, False, 0)
    chave = "dados:" + _sha256(repr([_counts(r) for r in registros]).encode("utf-8"))
    geracoes = [r.gerado_em for r in registros if r.gerado_em is not None]
    contando = any(r.secoes_totalizadas < r.secoes for r in registros)
    restante = sum(max(0, r.eleitorado - r.eleitorado_totalizado) for r in registros)
    return chave, ((min(geracoes) if geracoes else None), contando, restante)


def _time_limit_min() -> float:
    return next(r.limite for r in GOVERNOR_RULES if r.id == "diferenca_horario")


# Municipal mode: a part still counting whose held file was generated longer ago than this is asked
# again even when its coverage row did not move. The TSE regenerates every file at every cycle, so
# the answer brings a fresh `hg`, and the seed's time-difference row (each part still counting ×
# the UF file, ≤ 5 min) never fails on a file the job simply did not ask for. Half the row's limit.
REFRESH_AFTER = dt.timedelta(minutes=_time_limit_min() / 2)

# captura.json `erro` of a municipal file the agenda has not asked yet (president by municipality).
NOT_YET_ASKED = "ainda não pedido: a agenda municipal o deixou para um próximo ciclo"

# captura.json keys that describe one cycle's answer, not the reading itself.
CYCLE_KEYS = ("preservado", "erro", "tentado_em", "rejeitado")


def _base_entry(entrada: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in entrada.items() if k not in CYCLE_KEYS}


# --------------------------------------------------------------------------------------- state


@dataclass
class Leitura:
    """The current reading of one file: its bytes, its captura.json entry and its HTTP validators."""

    nome: str
    corpo: bytes | None = None
    jws: bytes | None = None
    entrada: dict[str, Any] = field(default_factory=dict)
    origem: Path | None = None  # the same bytes in the latest snapshot (hard-link source)
    origem_jws: Path | None = None
    etag: str | None = None
    last_modified: str | None = None
    fonte: str = "json"  # URL the validators belong to: "json" or "jws"
    rejeitados: tuple[tuple[str, bytes], ...] = ()  # this cycle's refused bytes, stored aside for audit
    dados: str | None = None  # `data_key` of `corpo`: what "new data" is compared on
    gerado_em: dt.datetime | None = None  # `dg/hg` of `corpo` (`generation`)
    em_apuracao: bool = False  # `corpo` has a part still counting
    restante: int = 0  # electorate not yet totalized in `corpo` (the municipal agenda's order)


@dataclass
class Cobertura:
    """The latest copy of one coverage file and the stamps parsed from it."""

    corpo: bytes
    carimbos: dict[str, str]
    etag: str | None = None
    last_modified: str | None = None
    origem: Path | None = None
    baixado_em: str | None = None
    gerado_em: dt.datetime | None = None  # its `dg/hg`


@dataclass
class RaceState:
    """What the job remembers about one race between cycles (rebuilt from `latest` on start)."""

    corrida: Corrida
    pasta: Path
    leituras: dict[str, Leitura] = field(default_factory=dict)
    cobertura: dict[str, Cobertura] = field(default_factory=dict)
    carimbos: dict[str, str] = field(default_factory=dict)  # part → coverage stamp when last fetched
    reconferir: dict[str, int] = field(default_factory=dict)  # part → cycles left to refetch
    gemeos: bool | None = None  # whether this race's files have `.jws` twins (None: not probed)
    gemeos_em: dt.datetime | None = None  # when a probe last found no twin (reprobed like the catalogue)
    ultima_captura: str | None = None
    assinatura: Assinatura | None = None
    resumo: dict[str, Any] = field(default_factory=dict)
    sobras_conferidas: bool = False  # whether a killed run's uncommitted snapshots were looked for
    # Governor by municipality/zone whose municipal files the TSE does not publish (every one 404,
    # or the UF not in the municipality config): the seed's "modo degradado" (`jobs/tse/degradado.py`).
    degradado: bool = False
    sondado_em: dt.datetime | None = None  # when a municipal file was last probed while degraded
    # President by municipality (`jobs/tse/agenda_municipal.py`): municipalities owed a fetch
    # because their UF file advanced, not yet fetched for lack of budget.
    pendentes: frozenset[str] = frozenset()

    @classmethod
    def carregar(cls, corrida: Corrida, pasta: Path) -> RaceState:
        """The state of a race as its latest snapshot left it (empty when there is none)."""
        estado = cls(corrida, pasta)
        clean_staging(pasta)
        nome = read_latest(pasta)
        if nome is None:
            return estado
        snap = pasta / nome
        try:
            captura = json.loads((snap / CAPTURE_FILE).read_bytes())
            saida = json.loads((snap / OUTPUT_FILE).read_bytes())
        except (OSError, ValueError):
            return estado
        arquivos = captura.get("arquivos", {}) if isinstance(captura, dict) else {}
        for nome_arq, entrada in arquivos.items():
            if not isinstance(entrada, dict) or not is_member(nome_arq):
                continue  # a name that could leave the snapshot folder is never read
            p = snap / nome_arq
            pj = snap / (nome_arq[: -len(".json")] + ".jws")
            estado.leituras[nome_arq] = Leitura(
                nome=nome_arq,
                corpo=p.read_bytes() if p.is_file() else None,
                jws=pj.read_bytes() if pj.is_file() else None,
                entrada=dict(entrada),
                origem=p if p.is_file() else None,
                origem_jws=pj if pj.is_file() else None,
                etag=entrada.get("etag"),
                last_modified=entrada.get("last_modified"),
                fonte=str(entrada.get("fonte", "json")),
            )
            le = estado.leituras[nome_arq]
            le.dados, (le.gerado_em, le.em_apuracao, le.restante) = key_and_facts(nome_arq, le.corpo)
            if entrada.get("fonte") == "jws":
                estado.gemeos = True  # once signed, a missing twin is a failed file, never a downgrade
        for nome_cob, info in (captura.get("cobertura") or {}).items():
            p = snap / nome_cob
            if not p.is_file() or not isinstance(info, dict):
                continue
            corpo = p.read_bytes()
            try:
                lida = parse_coverage_file(corpo, nome_cob[:2])
            except CoverageError:
                continue
            carimbos = {parte: linha.carimbo for parte, linha in lida.linhas.items()}
            estado.cobertura[nome_cob] = Cobertura(
                corpo, carimbos, info.get("etag"), info.get("last_modified"), p, info.get("baixado_em"),
                lida.gerado_em,
            )  # fmt: skip
            estado.carimbos.update(carimbos)
        if corrida.cargo == "presidente":
            # By municipality the stamp that counts is the one seen when each file was fetched,
            # recorded with its entry (`_record_coverage_basis`); never the latest coverage's.
            estado.carimbos = {
                nome_arq[:7]: str(e["cobertura"]["carimbo"])
                for nome_arq, e in arquivos.items()
                if isinstance(e, dict)
                and isinstance(e.get("cobertura"), dict)
                and isinstance(e["cobertura"].get("carimbo"), str)
            }
        estado.degradado = degraded_capture(corrida, arquivos)
        estado.ultima_captura = nome
        estado.assinatura = signature(arquivos, {n: le.dados for n, le in estado.leituras.items()})
        estado.resumo = _summary(saida)
        return estado


@dataclass
class _Cache:
    corpo: bytes
    etag: str | None
    last_modified: str | None
    em: dt.datetime


@dataclass
class PollState:
    """Everything a sequence of cycles shares: client, clock, model inputs, catalogue, races."""

    config: ConfigTse
    cliente: TseClient
    relogio: Relogio
    baselines: dict[str, Baseline]
    chave: ChaveTse
    catalogo: Catalogo | None = None
    catalogo_cache: _Cache | None = None
    municipios: dict[str, tuple[dict[str, tuple[Municipio, ...]], _Cache]] = field(default_factory=dict)
    corridas: dict[tuple[str, str], RaceState] = field(default_factory=dict)
    repositorio_ok: bool | None = None
    commit_modelo: str | None = None  # the code's commit when model/ is exactly it (for auditors)

    @classmethod
    def criar(
        cls,
        config: ConfigTse,
        *,
        relogio: Relogio | None = None,
        cliente: TseClient | None = None,
    ) -> PollState:
        """Check the calibration pin and load the model inputs; TseError (Portuguese) when it cannot run."""
        check_calibration(config)
        try:
            chave = key_from_jwk(config.jws_kid, config.jws_x)
        except SignatureError as exc:
            raise TseError(str(exc)) from exc
        try:
            baselines = load_baselines()
        except (OSError, ValueError) as exc:
            raise TseError(f"bases do 1º turno ilegíveis em model/baselines/: {exc}") from exc
        return cls(
            config=config,
            cliente=cliente or TseClient(config),
            relogio=relogio or _utc_now,
            baselines=baselines,
            chave=chave,
            commit_modelo=model_commit(Path(__file__).resolve().parents[2]),
        )

    def corrida(self, c: Corrida) -> RaceState:
        """The state of one race, loaded from disk on first use."""
        chave = (c.eleicao, c.pasta)
        if chave not in self.corridas:
            self.corridas[chave] = RaceState.carregar(c, race_dir(self.config.dados, c))
        return self.corridas[chave]

    def fechar(self) -> None:
        """Release the HTTP sessions."""
        self.cliente.close()


def check_calibration(config: ConfigTse) -> Calibration:
    """The model's calibration, or TseError when its SHA-256 is not the one pinned in `[tse]`."""
    try:
        cal = load_calibration()
    except CalibrationError as exc:
        raise TseError(f"calibração do modelo ilegível: {exc}") from exc
    if cal.sha256 != config.calibracao_sha256:
        raise TseError(
            "a calibração do modelo não é a fixada para a noite: model/calibracao.json tem SHA-256 "
            f"{cal.sha256}, e [tse] calibracao_sha256 = {config.calibracao_sha256}. Se a mudança é "
            "deliberada, atualize calibracao_sha256 em eleicoes.toml."
        )
    return cal


# -------------------------------------------------------------------------------------- results


@dataclass
class RaceResult:
    """What one cycle did for one race (one log line)."""

    corrida: Corrida
    pedidos: int = 0
    novos: int = 0
    regenerados: int = 0  # new bytes (`hg`, `idg`) with the same counts and `dt/ht`: not a new reading
    iguais: int = 0
    nao_modificados: int = 0
    falhas: int = 0
    rejeitados: int = 0
    preservados: int = 0
    alterado: bool = False
    reavaliado: bool = False  # written because publishability changed with no new reading
    degradado: bool = False  # a governor in the seed's degraded mode (no municipal files published)
    agenda: Agenda | None = None  # president by municipality: what the municipal agenda chose
    captura: str | None = None
    apurado_pct: float | None = None
    publicavel: bool | None = None
    nao_atendidos: tuple[str, ...] = ()
    commit: str | None = None
    erro: str | None = None
    avisos: list[str] = field(default_factory=list)
    tempos: dict[str, float] = field(default_factory=dict)  # seconds: busca, gravacao (+ model), commit

    def linha(self) -> str:
        """One log line in Portuguese."""
        c = self.corrida
        partes = [
            f"{c.rotulo}: {self.pedidos} pedidos",
            f"{self.novos} alterados",
            *([f"{self.regenerados} regenerados sem dado novo"] if self.regenerados else []),
            f"{self.nao_modificados} não modificados (304)",
            f"{self.falhas} erros",
        ]
        if self.rejeitados:
            partes.append(f"{self.rejeitados} rejeitados")
        if self.preservados:
            partes.append(f"{self.preservados} leituras preservadas")
        if self.agenda is not None:
            r1, r2, r3, r4 = self.agenda.por_regra
            partes.append(
                f"agenda municipal: {len(self.agenda.buscar)} municípios pedidos (nunca lidos {r1}, "
                f"falhos {r2}, a renovar {r3}, que mudaram {r4}), {self.agenda.adiados} adiados, "
                f"{self.agenda.confirmados} em apuração confirmados pela cobertura"
            )
        texto = ", ".join(partes)
        if self.erro:
            texto += f"; ERRO: {self.erro}"
            if self.reavaliado:
                motivo = ", ".join(self.nao_atendidos) or "?"
                estado = "publicável" if self.publicavel else f"não publicável ({motivo})"
                texto += f"; leitura retida reavaliada, snapshot {self.captura}; {estado}"
            return texto
        if self.reavaliado:
            texto += f"; reavaliação sem arquivo novo, snapshot {self.captura}"
        else:
            texto += f"; snapshot {self.captura}" if self.alterado else "; sem mudança, nada gravado"
        if self.apurado_pct is not None:
            texto += f"; {self.apurado_pct:.2f}% apurado".replace(".", ",")
        if self.degradado:
            texto += "; modo degradado (o TSE não publica os arquivos municipais: só o arquivo da UF)"
        if self.publicavel is True:
            texto += "; publicável"
        elif self.publicavel is False:
            motivo = ", ".join(self.nao_atendidos) or "?"
            texto += f"; não publicável ({motivo})"
        if self.commit:
            texto += f"; commit {self.commit[:10]}"
        for aviso in self.avisos:
            texto += f"; aviso: {aviso}"
        return texto


@dataclass
class CycleResult:
    """All races of one cycle."""

    corridas: list[RaceResult]
    duracao_s: float
    erro: str | None = None

    @property
    def alterado(self) -> bool:
        """Whether any race wrote a snapshot."""
        return any(r.alterado for r in self.corridas)

    def linhas(self) -> list[str]:
        """The log lines of the cycle."""
        if self.erro:
            return [f"ciclo não executado: {self.erro}"]
        return [r.linha() for r in self.corridas]


def _summary(saida: Any) -> dict[str, Any]:
    if not isinstance(saida, dict):
        return {}
    return {
        "apurado_pct": saida.get("apurado_pct"),
        "publicavel": saida.get("publicavel"),
        "criterios_nao_atendidos": tuple(saida.get("criterios_nao_atendidos") or ()),
    }


def signature(arquivos: dict[str, Any], dados: dict[str, str | None] | None = None) -> Assinatura:
    """What the model reads of a capture (per file: its data — `data_key`, the counts and `dt/ht`,
    or the bytes' hash where no key is given —, status, preserved flag) plus the hashes of the bytes
    refused this cycle, so a new refused reading is stored once. A file the TSE only regenerated
    (new `hg`/`idg`, same data) leaves the signature as it was."""
    chaves = dados or {}
    out = []
    for nome, e in sorted(arquivos.items()):
        if isinstance(e, dict):
            rej = e.get("rejeitado")
            rejeitado = (
                tuple(sorted((str(k), str(v)) for k, v in rej.items())) if isinstance(rej, dict) else ()
            )
            chave = chaves.get(nome) or e.get("sha256")
            out.append((nome, chave, e.get("status"), e.get("preservado") is True, rejeitado))
    return tuple(out)


# ------------------------------------------------------------------------------------ catalogue


def _due(cache: _Cache | None, agora: dt.datetime, intervalo_s: float) -> bool:
    return cache is None or (agora - cache.em).total_seconds() >= intervalo_s


def _refresh(
    state: PollState, url: str, cache: _Cache | None, agora: dt.datetime
) -> tuple[_Cache | None, str | None]:
    """Conditional GET of a config file: the new cache (same bytes on a 304) or the old one and why."""
    pedido = Pedido(url, cache.etag if cache else None, cache.last_modified if cache else None)
    r = state.cliente.get(pedido)
    if r.status == 304 and cache is not None:
        return _Cache(cache.corpo, cache.etag, cache.last_modified, agora), None
    if r.ok and r.corpo is not None:
        return _Cache(r.corpo, r.etag, r.last_modified, agora), None
    return cache, r.erro or f"resposta {r.status}"


def _catalogue(state: PollState, agora: dt.datetime) -> tuple[Catalogo | None, str | None, int]:
    """The election catalogue, rechecked every `catalogo_intervalo_s`; (catalogue, error, requests)."""
    cfg = state.config
    antigo = state.catalogo_cache
    if state.catalogo is not None and not _due(antigo, agora, cfg.catalogo_intervalo_s):
        return state.catalogo, None, 0
    cache, erro = _refresh(state, catalogue_url(cfg), antigo, agora)
    if cache is not None:
        try:
            if state.catalogo is None or antigo is None or cache.corpo != antigo.corpo:
                state.catalogo = parse_catalogue(cache.corpo)
            state.catalogo_cache = cache
        except CatalogError as exc:
            erro = str(exc)
    if state.catalogo is None:
        return None, f"catálogo do TSE (ele-c.json) indisponível: {erro}; nenhum arquivo pedido", 1
    if erro is not None:  # the new catalogue was refused or not answered: the last good one is kept
        return (
            state.catalogo,
            f"catálogo do TSE (ele-c.json) recusado ou indisponível ({erro}); mantido o último válido",
            1,
        )
    return state.catalogo, None, 1


def _plan(
    state: PollState, cat: Catalogo, c: Corrida, agora: dt.datetime
) -> tuple[PlanoCorrida, int, str | None]:
    """The race's files, the requests made and a warning when a new municipality config was refused
    (the last good one is kept); the config is fetched once per election and rechecked rarely."""
    cfg = state.config
    check_race(cat, cfg, c)  # never ask for the config of an election the catalogue does not list
    atual = state.municipios.get(c.eleicao)
    pedidos = 0
    aviso: str | None = None
    if atual is None or _due(atual[1], agora, cfg.catalogo_intervalo_s):
        pedidos = 1
        url = municipalities_url(cat, cfg, c.eleicao)
        cache, erro = _refresh(state, url, atual[1] if atual else None, agora)
        if cache is not None:
            try:
                muns = atual[0] if atual and cache.corpo == atual[1].corpo else None
                if muns is None:
                    muns, faltam = _keep_missing_ufs(parse_municipalities(cache.corpo, url), atual)
                    if faltam:
                        aviso = (
                            f"configuração de municípios sem a(s) UF(s) {', '.join(faltam)}; "
                            "mantida a última lista válida dessas UFs"
                        )
                state.municipios[c.eleicao] = (muns, cache)
            except CatalogError as exc:
                erro = str(exc)
                aviso = f"configuração de municípios recusada ({erro}); mantida a última válida"
        if c.eleicao not in state.municipios and not _by_uf(c):
            raise CatalogError(
                f"configuração de municípios da eleição {c.eleicao} indisponível: {erro}; "
                "nenhum arquivo pedido"
            )
    muns = state.municipios[c.eleicao][0] if c.eleicao in state.municipios else {}
    if _by_uf(c):
        # The president by UF reads one file per UF: its parts never depend on the municipality
        # config (a config that omits a UF, or none at all, must not drop a valid UF reading).
        muns = {**dict.fromkeys(UFS_PRESIDENTE, ()), **muns}
    return race_plan(cat, muns, cfg, c), pedidos, aviso


def _by_uf(c: Corrida) -> bool:
    return c.cargo == "presidente" and c.nivel == "uf"


def _keep_missing_ufs(
    novos: dict[str, tuple[Municipio, ...]],
    atual: tuple[dict[str, tuple[Municipio, ...]], _Cache] | None,
) -> tuple[dict[str, tuple[Municipio, ...]], list[str]]:
    """A new municipality config that omits UFs the last valid one listed keeps those UFs' last
    lists (the TSE does not remove a UF mid-night: a missing one is a bad file, and dropping it
    would drop the UF's valid readings); returns the merged config and the UFs kept."""
    if atual is None:
        return novos, []
    faltam = sorted(set(atual[0]) - set(novos))
    return {**novos, **{uf: atual[0][uf] for uf in faltam}}, faltam


# ---------------------------------------------------------------------------------------- fetch


@dataclass
class _Busca:
    arquivo: Arquivo
    fonte: str
    resposta: Resposta | None = None
    descartados: int = 0  # requests whose answer was replaced (a missing twin, then the .json)


def _request(rs: RaceState, arq: Arquivo, fonte: str) -> Pedido:
    anterior = rs.leituras.get(arq.nome)
    url = arq.url_jws if fonte == "jws" else arq.url
    if anterior is None or anterior.corpo is None or anterior.fonte != fonte:
        return Pedido(url)
    return Pedido(url, anterior.etag, anterior.last_modified)


def _get(state: PollState, rs: RaceState, buscas: list[_Busca]) -> None:
    respostas = state.cliente.get_many([_request(rs, b.arquivo, b.fonte) for b in buscas])
    for b, r in zip(buscas, respostas, strict=True):
        b.resposta = r


def _fetch(state: PollState, rs: RaceState, arquivos: list[Arquivo]) -> list[_Busca]:
    """Fetch each file from the URL its `.jws` mode says.

    `verificar`: a race that has shown a signed twin is signed for good, and then a missing or bad
    twin is a failed file for that part, never a silent downgrade to the unsigned `.json`. While
    that is not known (first cycle, or every `catalogo_intervalo_s` on an unsigned night) every
    file is asked as `.jws`: one twin answering makes the race signed, and only when no twin
    answers (404, the others failing) is the race read unsigned, from the `.json`, marked as such.
    Asking every twin, not one probe, keeps a single removed twin from passing as "no twins".
    """
    modo = state.config.jws
    if modo != "verificar":
        buscas = [_Busca(a, "json" if modo == "ignorar" else "jws") for a in arquivos]
        _get(state, rs, buscas)
        return buscas
    agora = state.relogio()
    if rs.gemeos is False and (
        rs.gemeos_em is None or (agora - rs.gemeos_em).total_seconds() >= state.config.catalogo_intervalo_s
    ):
        rs.gemeos = None  # twins may have been published since the last probe
    buscas = [_Busca(a, "json" if rs.gemeos is False else "jws") for a in arquivos]
    _get(state, rs, buscas)
    if rs.gemeos is None and buscas:
        status = [b.resposta.status if b.resposta else None for b in buscas]
        if any(st in (200, 304) for st in status):
            rs.gemeos = True
        elif 404 in status:
            rs.gemeos, rs.gemeos_em = False, agora
            sem_gemeo = [b for b, st in zip(buscas, status, strict=True) if st == 404]
            for b in sem_gemeo:
                b.descartados += b.resposta.tentativas if b.resposta else 0
                b.fonte = "json"
            _get(state, rs, sem_gemeo)
    return buscas


def _accept(state: PollState, busca: _Busca) -> tuple[bytes | None, bytes | None, str | None]:
    """(json bytes, jws bytes, rejection reason) of a 200 answer."""
    r = busca.resposta
    assert r is not None and r.corpo is not None
    if busca.fonte == "jws":
        try:
            corpo = verify_jws(r.corpo, state.chave)
        except SignatureError as exc:
            return None, None, f"{busca.arquivo.nome_jws}: {exc}"
        jws: bytes | None = r.corpo
    else:
        corpo, jws = r.corpo, None
    try:
        ok = isinstance(load_json(corpo), dict)
    except TseFormatError:
        ok = False
    if not ok:
        return None, None, "conteúdo não é um JSON válido (corpo truncado?)"
    return corpo, jws, None


Validador = Callable[[str, bytes, bytes | None], str | None]


def _validator(state: PollState, rs: RaceState, plano: PlanoCorrida) -> Validador:
    """The model's own check of one new reading against the last valid one of the same file.

    Returns the reason a reading is refused (wrong schema, another election's, round's, cargo's or
    UF's file, sums that do not add up, negative numbers, totals lower than the last valid
    reading), or None when the model would use it.
    """
    c = rs.corrida
    race = prepare_race(
        [a.nome for a in plano.arquivos],
        baselines=state.baselines,
        cargo=c.cargo,
        uf=None if c.cargo == "presidente" else c.uf,
        eleicao=c.eleicao,
    )
    plan = race.plan
    specs: dict[str, list[tuple[str, str, str | None]]] = {}
    for p in plan.partes:
        specs.setdefault(p.arquivo, []).append((p.nivel or plan.nivel, p.id, p.linha))
    if plan.agregado is not None and plan.agregado not in specs:
        specs[plan.agregado] = [("br" if c.cargo == "presidente" else "uf", race.uf, None)]
    entrada = CaptureEntry(None, 200, False, None)

    def validar(nome: str, corpo: bytes, antes: bytes | None) -> str | None:
        atual = Snapshot({nome: corpo}, {nome: entrada})
        anterior = Snapshot({nome: antes}, {nome: entrada}) if antes is not None else None
        for nivel, parte, linha in specs.get(nome, []):
            leitura = read_file(atual, nome, nivel, parte, race.expected, anterior, linha)
            if leitura.categoria == "inconsistente":
                return f"leitura recusada pelo modelo: {leitura.motivo}"
        return None

    return validar


def _apply(
    state: PollState, rs: RaceState, busca: _Busca, res: RaceResult, validar: Validador
) -> tuple[str, dt.datetime | None]:
    """Update the file's reading from its answer; returns the outcome and the answer's time.

    A reading is never replaced by one that failed: no answer, a bad signature, a body that is not
    JSON or one the model refuses keeps the last valid reading (marked preserved), and the refused
    bytes are kept aside in `rejeitados/` of the capture for audit.
    """
    r = busca.resposta
    assert r is not None
    nome = busca.arquivo.nome
    quando = (r.data_servidor if state.config.relogio == "servidor" else None) or state.relogio()
    res.pedidos += r.tentativas + busca.descartados
    anterior = rs.leituras.get(nome) or Leitura(nome)
    if r.status == 304 and anterior.corpo is not None:
        res.nao_modificados += 1
        entrada = _base_entry(anterior.entrada)
        entrada.update(baixado_em=_iso(quando), http=304, status=200)
        rs.leituras[nome] = Leitura(
            nome, anterior.corpo, anterior.jws, entrada, anterior.origem, anterior.origem_jws,
            anterior.etag, anterior.last_modified, anterior.fonte, dados=anterior.dados,
            gerado_em=anterior.gerado_em, em_apuracao=anterior.em_apuracao, restante=anterior.restante,
        )  # fmt: skip
        return "304", quando
    motivo: str | None = r.erro or f"TSE respondeu {r.status}"
    if busca.fonte == "jws" and r.status == 404:
        motivo = "assinatura .jws ausente (404); o .json sem assinatura não é aceito numa corrida assinada"
    rejeitados: tuple[tuple[str, bytes], ...] = ()
    if r.ok:
        corpo, jws, motivo = _accept(state, busca)
        if corpo is not None and corpo != anterior.corpo:
            motivo = validar(nome, corpo, anterior.corpo)
            if motivo is not None:
                rejeitados = ((nome, corpo),) + (((busca.arquivo.nome_jws, jws),) if jws is not None else ())
        if corpo is not None and motivo is None:
            mesmo = corpo == anterior.corpo
            mesmo_jws = jws == anterior.jws
            dados, fatos = key_and_facts(nome, corpo)
            assinatura = {"jws": "verificada", "json": "ausente"}[busca.fonte]
            if state.config.jws == "ignorar":
                assinatura = "não verificada"
            entrada = {
                "baixado_em": _iso(quando),
                "status": 200,
                "http": 200,
                "etag": r.etag,
                "last_modified": r.last_modified,
                "sha256": _sha256(corpo),
                "bytes": len(corpo),
                "fonte": busca.fonte,
                "assinatura": assinatura,
            }
            rs.leituras[nome] = Leitura(
                nome, corpo, jws, {k: v for k, v in entrada.items() if v is not None},
                anterior.origem if mesmo else None, anterior.origem_jws if mesmo and mesmo_jws else None,
                r.etag, r.last_modified, busca.fonte, dados=dados,
            )  # fmt: skip
            le = rs.leituras[nome]
            le.gerado_em, le.em_apuracao, le.restante = fatos
            if mesmo:
                res.iguais += 1
                return "igual", quando
            if anterior.corpo is not None and dados == anterior.dados:
                res.regenerados += 1  # the TSE regenerated it: fresh `hg`, nothing new
                return "regenerado", quando
            res.novos += 1
            return "novo", quando
        if not rejeitados and r.corpo is not None:
            rejeitados = ((busca.arquivo.nome_jws if busca.fonte == "jws" else nome, r.corpo),)
        res.rejeitados += 1
    else:
        res.falhas += 1
    # No usable answer: keep the last valid reading, marked preserved (seed criterion).
    if anterior.corpo is not None:
        entrada = _base_entry(anterior.entrada)
        entrada.update(preservado=True, erro=motivo, http=r.status, tentado_em=_iso(quando))
        res.preservados += 1
    else:
        entrada = {"status": None, "erro": motivo, "http": r.status, "tentado_em": _iso(quando)}
    if rejeitados:
        entrada["rejeitado"] = {f"{REJECTED_DIR}/{n}": _sha256(d) for n, d in rejeitados}
    rs.leituras[nome] = Leitura(
        nome, anterior.corpo, anterior.jws, entrada, anterior.origem, anterior.origem_jws,
        anterior.etag, anterior.last_modified, anterior.fonte, rejeitados, anterior.dados,
        anterior.gerado_em, anterior.em_apuracao, anterior.restante,
    )  # fmt: skip
    return "falha", quando


def _read_coverage(
    state: PollState, rs: RaceState, plano: PlanoCorrida, res: RaceResult
) -> tuple[dict[str, str], set[str], list[dt.datetime]]:
    """Conditional GETs of the plan's coverage files: (part → current row stamp, the UFs whose
    coverage file was read this cycle, 200 or 304, the answers' times). A file that fails keeps
    the last copy held (stored with the snapshot, its `dg/hg` says how old it is)."""
    pedidos = []
    for a in plano.cobertura:
        cob = rs.cobertura.get(a.nome)
        pedidos.append(Pedido(a.url, cob.etag, cob.last_modified) if cob else Pedido(a.url))
    respostas = state.cliente.get_many(pedidos)
    quando: list[dt.datetime] = []
    lidas: set[str] = set()
    atuais: dict[str, str] = {}
    for arq, r in zip(plano.cobertura, respostas, strict=True):
        res.pedidos += r.tentativas
        t = (r.data_servidor if state.config.relogio == "servidor" else None) or state.relogio()
        quando.append(t)
        anterior = rs.cobertura.get(arq.nome)
        if r.status == 304 and anterior is not None:
            res.nao_modificados += 1
            atuais.update(anterior.carimbos)
            lidas.add(arq.parte)
            continue
        if r.ok and r.corpo is not None:
            try:
                lida = parse_coverage_file(r.corpo, arq.parte)
            except CoverageError as exc:
                res.falhas += 1
                res.avisos.append(str(exc))
                continue
            carimbos = {parte: linha.carimbo for parte, linha in lida.linhas.items()}
            rs.cobertura[arq.nome] = Cobertura(
                r.corpo, carimbos, r.etag, r.last_modified, None, _iso(t), lida.gerado_em
            )
            atuais.update(carimbos)
            lidas.add(arq.parte)
            continue
        res.falhas += 1
    return atuais, lidas, quando


def _coverage_targets(
    state: PollState, rs: RaceState, plano: PlanoCorrida, res: RaceResult
) -> tuple[set[str], dict[str, str], list[dt.datetime]]:
    """Municipal mode: read the coverage files and choose the parts to fetch.

    A part is fetched when its row's stamp moved, when it was never read, when its last answer
    failed, while it is being rechecked (the coverage can move before the `-u` file does), or when
    it is still counting and the file held was generated more than REFRESH_AFTER ago (the TSE has
    regenerated it since: a fresh `hg` for the time criteria). A UF whose coverage file cannot be
    read has all its parts asked (conditional GETs).
    """
    atuais, lidas, quando = _read_coverage(state, rs, plano, res)
    sem_cobertura = {a.parte for a in plano.cobertura} - lidas
    agora = max(quando) if quando else state.relogio()
    alvo: set[str] = set()
    for a in plano.partes:
        leitura = rs.leituras.get(a.nome)
        uf = a.parte[:2]
        carimbo = atuais.get(a.parte)
        if (
            uf in sem_cobertura
            or leitura is None
            or leitura.entrada.get("status") != 200
            or leitura.entrada.get("preservado") is True
            or rs.reconferir.get(a.parte, 0) > 0
        ):
            alvo.add(a.nome)
        elif carimbo != rs.carimbos.get(a.parte):
            alvo.add(a.nome)
            rs.reconferir[a.parte] = state.config.reconferir_ciclos
        elif leitura.em_apuracao and leitura.gerado_em and agora - leitura.gerado_em > REFRESH_AFTER:
            alvo.add(a.nome)
    return alvo, atuais, quando


# ------------------------------------------------------------------------------------ snapshot


def _relative(path: Path, raiz: Path) -> str:
    try:
        return str(path.resolve().relative_to(raiz.resolve()))
    except ValueError:
        return str(path)


def _capture_doc(
    state: PollState, rs: RaceState, plano: PlanoCorrida, nome: str, args: ArgsProjecao, cal: Calibration
) -> dict[str, Any]:
    c = rs.corrida
    arquivos = {a.nome: rs.leituras[a.nome].entrada for a in plano.arquivos if a.nome in rs.leituras}
    doc: dict[str, Any] = {
        "arquivos": arquivos,
        "captura": nome,
        "corrida": {"cargo": c.cargo, "eleicao": c.eleicao, "uf": c.uf, "nivel": c.nivel, "pasta": c.pasta},
        "projetar": args.opcoes(),
        "comando": args.comando(_relative(rs.pasta / nome, state.config.raiz)),
        "modelo": {
            k: v
            for k, v in {
                "versao": VERSION,
                "calibracao": cal.id,
                "calibracao_sha256": cal.sha256,
                "commit": state.commit_modelo,
            }.items()
            if v is not None
        },
        "fonte": {
            "url_base": state.config.url_base,
            "ambiente": state.config.ambiente,
            "ciclo": state.config.ciclo,
        },
    }
    if plano.cobertura:
        doc["cobertura"] = {
            a.nome: {
                k: v
                for k, v in {
                    "baixado_em": cob.baixado_em,
                    "etag": cob.etag,
                    "last_modified": cob.last_modified,
                    "sha256": _sha256(cob.corpo),
                }.items()
                if v is not None
            }
            for a in plano.cobertura
            if (cob := rs.cobertura.get(a.nome)) is not None
        }
    return doc


def _contents(
    rs: RaceState, plano: PlanoCorrida, municipios: tuple[str, bytes] | None
) -> dict[str, Conteudo]:
    out: dict[str, Conteudo] = {}
    if municipios is not None:
        # The municipality catalogue (`mun-e<ele>-cm.json`) travels with the snapshot: the pages
        # name each part from it, and an auditor gets it with the rest. It rarely changes (the
        # real one is ~0.5 MB): the previous snapshot's copy is hard-linked when it is the same.
        anterior = rs.pasta / rs.ultima_captura / municipios[0] if rs.ultima_captura else None
        igual = anterior is not None and anterior.is_file() and anterior.read_bytes() == municipios[1]
        out[municipios[0]] = Conteudo(municipios[1], anterior if igual else None)
    for a in plano.arquivos:
        leitura = rs.leituras.get(a.nome)
        if leitura is None or leitura.corpo is None:
            continue
        out[a.nome] = Conteudo(leitura.corpo, leitura.origem)
        if leitura.jws is not None:
            out[a.nome_jws] = Conteudo(leitura.jws, leitura.origem_jws)
    for a in plano.arquivos:
        leitura = rs.leituras.get(a.nome)
        for nome, dados in leitura.rejeitados if leitura is not None else ():
            out[f"{REJECTED_DIR}/{nome}"] = Conteudo(dados)
    for a in plano.cobertura:
        cob = rs.cobertura.get(a.nome)
        if cob is not None:
            out[a.nome] = Conteudo(cob.corpo, cob.origem)
    return out


def _after_write(rs: RaceState, plano: PlanoCorrida, snap: Path) -> None:
    """Point every reading at its file in the new snapshot (hard-link source for the next one)."""
    for a in plano.arquivos:
        leitura = rs.leituras.get(a.nome)
        if leitura is not None and leitura.corpo is not None:
            leitura.origem = snap / a.nome
            leitura.origem_jws = snap / a.nome_jws if leitura.jws is not None else None
    for a in plano.cobertura:
        cob = rs.cobertura.get(a.nome)
        if cob is not None:
            cob.origem = snap / a.nome


def _repository(state: PollState, res: RaceResult) -> Path | None:
    """The git repository to commit into, with a killed git's stale locks removed; None (and a
    warning) when the data folder is not a repository's root."""
    repo = state.config.repositorio
    if state.repositorio_ok is None:
        state.repositorio_ok = is_repository_root(repo)
    if not state.repositorio_ok:
        res.avisos.append(f"sem commit: {repo} não é a raiz de um repositório git (rode 'git init {repo}')")
        return None
    # We hold the poll lock (no other poll of ours runs): a git lock with no live git is stale.
    res.avisos.extend(recover_stale_locks(repo))
    return repo


def _commit_leftovers(state: PollState, rs: RaceState, res: RaceResult) -> None:
    """Once per run and race: commit what a killed run wrote and never committed (its snapshots,
    `latest`), so the audit trail has every snapshot on disk."""
    if rs.sobras_conferidas or not state.config.git or not rs.pasta.is_dir():
        return
    rs.sobras_conferidas = True
    repo = _repository(state, res)
    if repo is None:
        return
    c = rs.corrida
    try:
        if not pending_paths(repo, [rs.pasta]):
            return
        mensagem = (
            f"tse {c.eleicao} {c.pasta}: snapshots gravados por uma coleta interrompida\n\n"
            "Commit feito pela coleta seguinte: a anterior foi encerrada antes do seu commit.\n"
        )
        res.commit = commit_paths(repo, [rs.pasta], mensagem, state.config.git_autor)
        res.avisos.append("snapshots sem commit de uma coleta interrompida foram registrados no git")
    except (GitError, ValueError) as exc:
        res.avisos.append(f"commit das sobras falhou, snapshots mantidos: {exc}")


def _commit(state: PollState, rs: RaceState, snap: Path, cal: Calibration, res: RaceResult) -> None:
    cfg = state.config
    repo = _repository(state, res)
    if repo is None:
        return
    c = rs.corrida
    estado = "publicável" if res.publicavel else "não publicável: " + ", ".join(res.nao_atendidos)
    mensagem = (
        f"tse {c.eleicao} {c.pasta} {snap.name}: modelo {VERSION}, calibração {cal.id} "
        f"sha256 {cal.sha256}\n\n{res.apurado_pct}% apurado; {estado}\n"
    )
    try:
        # The whole race folder: this snapshot, `latest`, and any snapshot a killed run left
        # uncommitted (snapshots are renamed into place whole; `.staging/` is empty here).
        res.commit = commit_paths(repo, [rs.pasta], mensagem, cfg.git_autor)
    except (GitError, ValueError) as exc:
        res.avisos.append(f"commit falhou, snapshot mantido: {exc}")


# ----------------------------------------------------------------------------------------- cycle


def _in_memory(
    state: PollState,
    rs: RaceState,
    plano: PlanoCorrida,
    doc: dict[str, Any],
    args: ArgsProjecao,
    cal: Calibration,
) -> dict[str, Any]:
    """The model's output for the readings held now, exactly as `eleicoes projetar` would compute it
    on the snapshot this cycle would write (same files, same captura.json, same previous snapshot)."""
    arquivos = {
        a.nome: leitura.corpo
        for a in plano.arquivos
        if (leitura := rs.leituras.get(a.nome)) is not None
        and leitura.corpo is not None
        and FILE_NAME.match(a.nome)
    }
    captura, erro = parse_capture(capture_json_bytes(doc))
    cobertura = {a.nome: cob.corpo for a in plano.cobertura if (cob := rs.cobertura.get(a.nome)) is not None}
    snap = Snapshot(arquivos, captura, erro, cobertura=cobertura)
    prev_dir = rs.pasta / rs.ultima_captura if rs.ultima_captura else None
    anterior = read_snapshot(prev_dir) if prev_dir is not None else None
    return project_snapshot(
        snap, args, anterior, calibracao=cal, baselines=state.baselines, saida_anterior=read_output(prev_dir)
    )


def _with_now(args: ArgsProjecao, arquivos: dict[str, Any], quando: list[dt.datetime]) -> ArgsProjecao:
    """`args` with the cycle's time as the model's "now" when it is later than every `baixado_em`
    of the capture: files that failed this cycle keep their old download time, and without this
    the seed's file age would be measured at the last answer forever (a TSE that stops answering
    would leave the race "publicável"). `baixado_em` is the default "now" otherwise."""
    if not quando:
        return args
    ciclo = max(quando).astimezone(dt.UTC).replace(microsecond=0)
    baixados = [parse_iso(e.get("baixado_em")) for e in arquivos.values() if isinstance(e, dict)]
    ultimo = max((b for b in baixados if b is not None), default=None)
    if ultimo is not None and ciclo <= ultimo:
        return args
    return dataclasses.replace(args, agora=_iso(ciclo))


def _run_race(
    state: PollState, c: Corrida, cat: Catalogo, cal: Calibration, agora: dt.datetime, res: RaceResult
) -> None:
    t0 = time.perf_counter()
    rs = state.corrida(c)
    _commit_leftovers(state, rs, res)
    plano, n, aviso = _plan(state, cat, c, agora)
    res.pedidos += n
    if aviso is not None:
        res.avisos.append(aviso)
    for leitura in rs.leituras.values():  # refused bytes belong to the cycle that received them
        leitura.rejeitados = ()
    validar = _validator(state, rs, plano)
    plano, quando = _fetch_race(state, rs, plano, res, validar, agora)
    res.degradado = rs.degradado
    res.tempos["busca"] = time.perf_counter() - t0
    arquivos = {a.nome: rs.leituras[a.nome].entrada for a in plano.arquivos if a.nome in rs.leituras}
    args = _with_now(args_for(c, state.config.corrigir_deriva), arquivos, quando)
    assinatura = signature(arquivos, {n: le.dados for n, le in rs.leituras.items()})
    nome = next_capture_name(max(quando) if quando else state.relogio(), rs.ultima_captura)
    doc = _capture_doc(state, rs, plano, nome, args, cal)
    if assinatura == rs.assinatura:
        # No new reading (304s, or files the TSE only regenerated), but the criteria are
        # re-evaluated at this cycle's time on the bytes held now (file age is one: a regenerated
        # file's `hg` is fresh): a snapshot is written only when publishability or the failed
        # criteria change. A cycle that only saw `hg`/`idg` move writes and commits nothing.
        agora_resumo = _summary(_in_memory(state, rs, plano, doc, args, cal))
        chave = ("publicavel", "criterios_nao_atendidos")
        if rs.ultima_captura is None or all(agora_resumo.get(k) == rs.resumo.get(k) for k in chave):
            res.apurado_pct = rs.resumo.get("apurado_pct")
            res.publicavel = rs.resumo.get("publicavel")
            res.nao_atendidos = tuple(rs.resumo.get("criterios_nao_atendidos", ()))
            return
        res.reavaliado = True
    rs.pasta.mkdir(parents=True, exist_ok=True)

    def projetar(pasta: Path, anterior: Path | None) -> bytes:
        return project_folder(
            pasta,
            args,
            anterior=anterior,
            anterior_automatico=False,
            calibracao=cal,
            baselines=state.baselines,
        )

    t1 = time.perf_counter()
    cm = state.municipios.get(c.eleicao)
    catalogo = (f"mun-e{int(c.eleicao):06d}-cm.json", cm[1].corpo) if cm is not None else None
    snap = write_snapshot(rs.pasta, nome, _contents(rs, plano, catalogo), doc, projetar)
    res.tempos["gravacao"] = time.perf_counter() - t1
    _after_write(rs, plano, snap)
    rs.ultima_captura, rs.assinatura = nome, assinatura
    rs.resumo = _summary(json.loads((snap / OUTPUT_FILE).read_bytes()))
    res.alterado, res.captura = True, nome
    res.apurado_pct = rs.resumo.get("apurado_pct")
    res.publicavel = rs.resumo.get("publicavel")
    res.nao_atendidos = tuple(rs.resumo.get("criterios_nao_atendidos", ()))
    if state.config.git:
        t2 = time.perf_counter()
        _commit(state, rs, snap, cal, res)
        res.tempos["commit"] = time.perf_counter() - t2


def _fetch_race(
    state: PollState,
    rs: RaceState,
    plano: PlanoCorrida,
    res: RaceResult,
    validar: Validador,
    agora: dt.datetime,
) -> tuple[PlanoCorrida, list[dt.datetime]]:
    """Fetch what this cycle asks for; returns the plan the capture follows (a degraded governor's
    holds only its UF file) and the answers' times."""
    if not degradable(rs.corrida):
        if rs.corrida.cargo == "presidente" and plano.referencias:
            return plano, _fetch_president_municipal(state, rs, plano, res, validar)
        return plano, _fetch_parts(state, rs, plano, res, validar)
    so_uf = dataclasses.replace(plano, partes=(), cobertura=())
    if rs.degradado or not plano.partes:
        rs.degradado = True
        devido = probe_due(rs.sondado_em, agora, state.config.catalogo_intervalo_s)
        uf = plano.agregado
        held = rs.leituras.get(uf.nome) if uf is not None else None
        alvo = [uf] if uf is not None else []
        if not plano.partes and held is not None and held.corpo is None and held.entrada.get("http") == 404:
            # A UF in no municipality config whose UF file was never published: asked sparsely too.
            alvo = alvo if devido else []
            rs.sondado_em = agora if devido else rs.sondado_em
        sonda = plano.partes[0] if plano.partes and devido else None
        quando = _fetch_apply(state, rs, [*alvo, *([sonda] if sonda else [])], res, validar)
        if sonda is None:
            return so_uf, quando
        leitura = rs.leituras.get(sonda.nome)
        if leitura is None or leitura.corpo is None or leitura.entrada.get("preservado") is True:
            if leitura is not None and leitura.entrada.get("http") == 404:
                rs.sondado_em = agora  # still unpublished: next probe in catalogo_intervalo_s
            rs.leituras.pop(sonda.nome, None)  # a probe that found nothing is not part of the reading
            return so_uf, quando
        rs.degradado, rs.sondado_em = False, None
        res.avisos.append("o TSE publicou os arquivos municipais: modo degradado desligado")
        return plano, quando + _fetch_parts(state, rs, plano, res, validar)
    quando = _fetch_parts(state, rs, plano, res, validar)
    entradas = [rs.leituras[a.nome].entrada if a.nome in rs.leituras else None for a in plano.partes]
    lidos = [(le := rs.leituras.get(a.nome)) is not None and le.corpo is not None for a in plano.partes]
    if none_published(entradas, lidos):
        rs.degradado, rs.sondado_em = True, agora
        for a in plano.partes:
            rs.leituras.pop(a.nome, None)
            rs.carimbos.pop(a.parte, None)
            rs.reconferir.pop(a.parte, None)
        res.degradado = True
        res.avisos.append(
            "o TSE não publica os arquivos municipais desta corrida (404 em todos): modo degradado, "
            "só o arquivo da UF; um arquivo municipal é sondado a cada catalogo_intervalo_s"
        )
        return so_uf, quando
    return plano, quando


def _fetch_president_municipal(
    state: PollState, rs: RaceState, plano: PlanoCorrida, res: RaceResult, validar: Validador
) -> list[dt.datetime]:
    """President by municipality: the UF files, `br` and the UF coverage files first, then the
    municipalities the agenda chooses within the cycle's budget (`jobs/tse/agenda_municipal.py`)."""
    cfg = state.config
    antes = {a.parte: _valid_key(rs.leituras.get(a.nome)) for a in plano.referencias}
    primeiro = [*plano.referencias, *([plano.agregado] if plano.agregado else [])]
    quando = _fetch_apply(state, rs, primeiro, res, validar)
    depois = {a.parte: _valid_key(rs.leituras.get(a.nome)) for a in plano.referencias}
    atuais, lidas, q = _read_coverage(state, rs, plano, res)
    quando += q
    agora = max(quando) if quando else state.relogio()
    frescas = {
        a.parte: a.nome
        for a in plano.cobertura
        if a.parte in lidas and usable_coverage(rs.cobertura.get(a.nome), agora)
    }
    if len(frescas) < len(plano.cobertura):
        faltam = sorted({a.parte for a in plano.cobertura} - set(frescas))
        res.avisos.append(
            "arquivo de acompanhamento ilegível, ausente ou velho em "
            f"{', '.join(faltam)}: municípios dessas UFs renovados pela idade do próprio arquivo"
        )
    partes = []
    for a in plano.partes:
        coberto = a.parte[:2] in frescas and a.parte in atuais
        movido = coberto and (
            atuais[a.parte] != rs.carimbos.get(a.parte) or rs.reconferir.get(a.parte, 0) > 0
        )
        partes.append(_municipal_part(a, rs.leituras.get(a.nome), coberto, movido))
    agenda = plan_fetch(
        partes,
        advanced_ufs(antes, depois),
        rs.pendentes,
        agora,
        budget(cfg.requisicoes_por_segundo, cfg.prazo_ciclo_s, cfg.rajada, res.pedidos),
        REFRESH_AFTER,
        cfg.catalogo_intervalo_s,
    )
    rs.pendentes = agenda.pendentes
    res.agenda = agenda
    por_parte = {a.parte: a for a in plano.partes}
    for busca in _fetch(state, rs, [por_parte[p] for p in agenda.buscar]):
        desfecho, t = _apply(state, rs, busca, res, validar)
        if t is not None:
            quando.append(t)
        parte = busca.arquivo.parte
        nome_cob = frescas.get(parte[:2]) if parte in atuais else None
        _record_coverage_basis(rs, busca.arquivo.nome, nome_cob, atuais.get(parte), desfecho, cfg)
    for a in plano.partes:
        if a.nome not in rs.leituras:
            # Never read and left for a later cycle by the budget: listed with no file, so the model
            # counts it as a part without a valid file (never as a part that does not exist).
            rs.leituras[a.nome] = Leitura(a.nome, entrada={"status": None, "erro": NOT_YET_ASKED})
    return quando


def usable_coverage(cob: Cobertura | None, agora: dt.datetime) -> bool:
    """Whether a coverage file may stand for the municipal files of its UF this cycle: read, with a
    `dg/hg` under REFRESH_AFTER old (a file it confirms is then measured at that time, well inside
    the seed's 5 minutes; an older one would only confirm files as stale as itself)."""
    return cob is not None and cob.gerado_em is not None and agora - cob.gerado_em < REFRESH_AFTER


def _record_coverage_basis(
    rs: RaceState,
    nome: str,
    nome_cob: str | None,
    carimbo: str | None,
    desfecho: str,
    cfg: ConfigTse,
) -> None:
    """After a municipal file was asked: remember (in its captura.json entry too) the stamp its
    coverage row showed in this cycle, the basis on which the model may later confirm it
    (`model/cobertura.py`). A row that moved while the file did not (the coverage can precede the
    file) is asked again for `reconferir_ciclos` cycles. No usable coverage: no basis."""
    parte = nome[:7]
    leitura = rs.leituras.get(nome)
    if desfecho == "falha":
        return  # the reading held is the one fetched before: its basis is unchanged
    if nome_cob is None or carimbo is None or leitura is None or leitura.corpo is None:
        rs.carimbos.pop(parte, None)
        rs.reconferir.pop(parte, None)
        if leitura is not None:
            leitura.entrada.pop("cobertura", None)
        return
    anterior = rs.carimbos.get(parte)
    if desfecho == "novo":
        rs.reconferir.pop(parte, None)
    elif anterior is not None and anterior != carimbo:
        rs.reconferir[parte] = cfg.reconferir_ciclos
    elif rs.reconferir.get(parte, 0) > 0:
        rs.reconferir[parte] -= 1
    rs.carimbos[parte] = carimbo
    leitura.entrada["cobertura"] = {"arquivo": nome_cob, "carimbo": carimbo}


def _valid_key(leitura: Leitura | None) -> str | None:
    """The data key of a valid, fresh reading; None when there is none (or it is preserved)."""
    if leitura is None or leitura.corpo is None or leitura.entrada.get("preservado") is True:
        return None
    return leitura.dados


def _municipal_part(
    a: Arquivo, leitura: Leitura | None, coberto: bool = False, movido: bool = False
) -> ParteMunicipal:
    if leitura is None:
        return ParteMunicipal(a.parte, lido=False)
    e = leitura.entrada
    lido = leitura.corpo is not None
    return ParteMunicipal(
        a.parte,
        lido=lido,
        falhou=lido and e.get("preservado") is True,
        ausente=not lido and e.get("http") == 404,
        tentado_em=parse_iso(e.get("tentado_em")),
        final=lido and not leitura.em_apuracao,
        gerado_em=leitura.gerado_em,
        restante=leitura.restante,
        cobertura=coberto,
        movido=movido,
    )


def _fetch_apply(
    state: PollState, rs: RaceState, alvo: list[Arquivo], res: RaceResult, validar: Validador
) -> list[dt.datetime]:
    """Fetch `alvo` and apply each answer (no coverage bookkeeping); the answers' times."""
    quando: list[dt.datetime] = []
    for busca in _fetch(state, rs, alvo):
        _, t = _apply(state, rs, busca, res, validar)
        if t is not None:
            quando.append(t)
    return quando


def _fetch_parts(
    state: PollState, rs: RaceState, plano: PlanoCorrida, res: RaceResult, validar: Validador
) -> list[dt.datetime]:
    """Every file of the plan, or in municipal mode the coverage files first and then the parts
    whose row moved (`_coverage_targets`)."""
    quando: list[dt.datetime] = []
    if plano.cobertura:
        alvo_nomes, atuais, quando = _coverage_targets(state, rs, plano, res)
        alvo = [a for a in plano.arquivos if a.nome in alvo_nomes or a is plano.agregado]
    else:
        alvo, atuais = list(plano.arquivos), {}
    for busca in _fetch(state, rs, alvo):
        desfecho, t = _apply(state, rs, busca, res, validar)
        if t is not None:
            quando.append(t)
        parte = busca.arquivo.parte
        if plano.cobertura and busca.arquivo is not plano.agregado:
            rs.carimbos[parte] = atuais.get(parte, rs.carimbos.get(parte, ""))
            if desfecho == "novo":
                rs.reconferir.pop(parte, None)
            elif rs.reconferir.get(parte, 0) > 0:
                rs.reconferir[parte] -= 1
    return quando


def run_cycle(config: ConfigTse, state: PollState, corridas: Iterable[Corrida] | None = None) -> CycleResult:
    """One polling cycle over every configured race (or `corridas`); never raises on bad data.

    The calibration is checked against the pin at every cycle: if it changed, nothing is fetched
    or written and the cycle reports why.
    """
    t0 = time.perf_counter()
    try:
        cal = check_calibration(config)
    except TseError as exc:
        return CycleResult([], time.perf_counter() - t0, str(exc))
    agora = state.relogio()
    resultados: list[RaceResult] = []
    # Requests not sent (or bodies not read) by the cycle deadline count as not answered.
    state.cliente.prazo = time.monotonic() + config.prazo_ciclo_s
    try:
        _races(config, state, corridas, cal, agora, resultados)
    finally:
        state.cliente.prazo = None
    return CycleResult(resultados, time.perf_counter() - t0)


def _races(
    config: ConfigTse,
    state: PollState,
    corridas: Iterable[Corrida] | None,
    cal: Calibration,
    agora: dt.datetime,
    resultados: list[RaceResult],
) -> None:
    try:
        cat, erro, n = _catalogue(state, agora)
    except CatalogError as exc:  # a bad catalogue never stops `eleicoes tse poll`: the last good one
        cat, erro, n = state.catalogo, f"catálogo do TSE (ele-c.json) recusado: {exc}", 0
    for i, c in enumerate(corridas if corridas is not None else config.corridas):
        res = RaceResult(c, pedidos=n if i == 0 else 0)
        resultados.append(res)
        if cat is None:
            res.erro = erro
            continue
        if erro is not None and i == 0:
            res.avisos.append(erro)
        try:
            _run_race(state, c, cat, cal, agora, res)
        except CatalogError as exc:
            res.erro = str(exc)
        except (OSError, SnapshotError, ProjectionError, CalibrationError, ValueError) as exc:
            res.erro = f"snapshot não gravado: {exc}"
        except Exception as exc:  # a bug in one race must not stop the night: report it, go on
            traceback.print_exc(file=sys.stderr)
            res.erro = f"erro interno ({type(exc).__name__}: {exc}); nada gravado nesta corrida"
        if res.erro is not None:
            withhold_stale(state, c, cal, res)
    if cat is None:
        for res in resultados:
            withhold_stale(state, res.corrida, cal, res)


def withhold_after_crash(config: ConfigTse, state: PollState) -> list[RaceResult]:
    """After `run_cycle` itself raised (the scheduler's TSE job): every race's held reading is
    re-evaluated at the current clock (`withhold_stale`); returns what was done per race."""
    resultados = []
    try:
        cal = check_calibration(config)
    except TseError:
        return []
    for c in config.corridas:
        res = RaceResult(c, erro="o ciclo da coleta foi interrompido por um erro")
        withhold_stale(state, c, cal, res)
        resultados.append(res)
    return resultados


def cycle_now(state: PollState) -> dt.datetime:
    """ "Now" for a race whose cycle did not complete: the TSE's clock estimated from its last
    `Date` (relogio = "servidor", guarded against a frozen one), else the machine's clock."""
    if state.config.relogio == "servidor":
        estimado = state.cliente.relogio_servidor.estimativa()
        if estimado is not None:
            return estimado
    return state.relogio()


def withhold_stale(state: PollState, c: Corrida, cal: Calibration, res: RaceResult) -> None:
    """A race whose cycle could not complete (it raised, the catalogue or the TSE is unavailable)
    is never left showing its last reading as current: the readings held (the latest snapshot's
    files, unchanged) are re-evaluated at the current clock with `--agora`, and a snapshot is
    written when publishability or the failed criteria change, so `idade_arquivo_referencia`
    fails once the held files are older than the seed's 5 minutes. The snapshot is an ordinary
    one (same bytes hard-linked, captura.json with the new name and command): `eleicoes auditar`
    reproduces its `saida.json`. Never raises: the reason is added to the race's warnings."""
    try:
        _withhold(state, c, cal, cycle_now(state), res)
    except Exception as exc:  # withholding must never stop the night either
        res.avisos.append(f"reavaliação da leitura retida falhou: {type(exc).__name__}: {exc}")


def _withhold(state: PollState, c: Corrida, cal: Calibration, agora: dt.datetime, res: RaceResult) -> None:
    rs = state.corridas.get((c.eleicao, c.pasta))
    if rs is None:
        rs = state.corrida(c)
    if rs.ultima_captura is None:
        return
    anterior = rs.pasta / rs.ultima_captura
    captura = json.loads((anterior / CAPTURE_FILE).read_bytes())
    arquivos = captura.get("arquivos") if isinstance(captura, dict) else None
    if not isinstance(arquivos, dict):
        return
    args = _with_now(args_for(c, state.config.corrigir_deriva), arquivos, [agora])
    if args.agora is None:
        return
    nome = next_capture_name(agora, rs.ultima_captura)
    doc = dict(captura)
    doc["captura"] = nome
    doc["projetar"] = args.opcoes()
    doc["comando"] = args.comando(_relative(rs.pasta / nome, state.config.raiz))
    corpos = {
        n: (anterior / n).read_bytes()
        for n in arquivos
        if is_member(n) and FILE_NAME.match(n) and (anterior / n).is_file()
    }
    capt, erro = parse_capture(capture_json_bytes(doc))
    cobertura = {
        n: (anterior / n).read_bytes()
        for n in (captura.get("cobertura") or {})
        if isinstance(n, str) and COVERAGE_NAME.match(n) and (anterior / n).is_file()
    }
    saida = project_snapshot(
        Snapshot(corpos, capt, erro, cobertura=cobertura),
        args,
        read_snapshot(anterior),
        calibracao=cal,
        baselines=state.baselines,
        saida_anterior=read_output(anterior),
    )
    resumo = _summary(saida)
    res.apurado_pct = rs.resumo.get("apurado_pct")
    res.publicavel = rs.resumo.get("publicavel")
    res.nao_atendidos = tuple(rs.resumo.get("criterios_nao_atendidos", ()))
    if all(resumo.get(k) == rs.resumo.get(k) for k in ("publicavel", "criterios_nao_atendidos")):
        return
    conteudo = {
        p.relative_to(anterior).as_posix(): Conteudo(None, p)
        for p in sorted(anterior.rglob("*"))
        if p.is_file() and p.name not in (CAPTURE_FILE, OUTPUT_FILE)
    }

    def projetar(pasta: Path, prev: Path | None) -> bytes:
        return project_folder(
            pasta, args, anterior=prev, anterior_automatico=False, calibracao=cal, baselines=state.baselines
        )

    snap = write_snapshot(rs.pasta, nome, conteudo, doc, projetar)
    for le in rs.leituras.values():  # hard-link sources stay valid (same bytes)
        if le.origem is not None:
            le.origem = snap / le.origem.name
        if le.origem_jws is not None:
            le.origem_jws = snap / le.origem_jws.name
    for cob in rs.cobertura.values():
        if cob.origem is not None:
            cob.origem = snap / cob.origem.name
    rs.ultima_captura = nome
    rs.resumo = _summary(json.loads((snap / OUTPUT_FILE).read_bytes()))
    res.reavaliado, res.captura = True, nome
    res.apurado_pct = rs.resumo.get("apurado_pct")
    res.publicavel = rs.resumo.get("publicavel")
    res.nao_atendidos = tuple(rs.resumo.get("criterios_nao_atendidos", ()))
    res.avisos.append("ciclo não concluído: leitura retida reavaliada no relógio atual, sem arquivo novo")
    if state.config.git:
        _commit(state, rs, snap, cal, res)
