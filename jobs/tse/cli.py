"""Subcommands of the election-night job: `eleicoes tse poll|servidor|noite-real|noite-sintetica`
and `eleicoes auditar`."""

from __future__ import annotations

import argparse
import datetime as dt
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jobs.configuracao import CONFIG_FILE
from jobs.tse.audit import audit_snapshot
from jobs.tse.config import ConfigTse, TseConfigError, carregar_config_tse
from jobs.tse.night import NightError, make_partial_night
from jobs.tse.replay import Falhas, brasilia, make_server

if TYPE_CHECKING:
    from jobs.tse.cycle import PollState


def _err(msg: str, status: int = 2) -> int:
    print(f"erro: {msg}", file=sys.stderr)
    return status


def _now() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def cmd_poll(args: argparse.Namespace) -> int:
    """Poll the TSE: one cycle (`--once`) or a loop every `intervalo_s` seconds until Ctrl+C."""
    from jobs.tse.cycle import PollState, TseError  # the HTTP client: only for polling
    from jobs.tse.store import take_poll_lock
    from site_builder.lock import LockBusyError

    try:
        config = carregar_config_tse(Path(args.config))
    except TseConfigError as exc:
        return _err(str(exc))
    mudancas: dict[str, Any] = {}
    if args.url_base:
        mudancas["url_base"] = args.url_base.rstrip("/")
    if args.dados:
        mudancas["pasta_dados"] = Path(args.dados).resolve()
        mudancas["repositorio_git"] = Path(args.dados).resolve()
    if args.sem_git:
        mudancas["git"] = False
    if args.relogio:
        mudancas["relogio"] = args.relogio
    if args.intervalo is not None:
        mudancas["intervalo_s"] = args.intervalo
    config = config.com(**mudancas)
    try:
        state = PollState.criar(config)
    except TseError as exc:
        return _err(str(exc))
    try:
        trava = take_poll_lock(config.dados, "eleicoes tse poll")
    except LockBusyError as exc:
        state.fechar()
        return _err(f"{exc}. Encerre a outra coleta antes de iniciar esta.")
    except OSError as exc:
        state.fechar()
        return _err(f"não foi possível abrir a trava da coleta em {config.dados}: {exc.strerror or exc}")
    with trava:
        return _poll(config, state, args)


def _poll(config: ConfigTse, state: PollState, args: argparse.Namespace) -> int:
    from jobs.tse.cycle import run_cycle

    status = 0
    try:
        while True:
            inicio = time.monotonic()
            resultado = run_cycle(config, state)
            for linha in resultado.linhas():
                print(f"{_now()} {linha}", flush=True)
            if resultado.erro:
                return 2
            status = 1 if any(r.erro for r in resultado.corridas) else 0
            if resultado.alterado and args.construir:
                _rebuild(config.raiz)
            if args.once:
                return status
            time.sleep(max(0.0, config.intervalo_s - (time.monotonic() - inicio)))
    except KeyboardInterrupt:
        print("coleta encerrada.")
        return status
    finally:
        state.fechar()


def _rebuild(raiz: Path) -> None:
    """Incremental site build after a changed cycle; a failed build keeps the last good site."""
    from site_builder.build import build_site
    from site_builder.errors import BuildError
    from site_builder.lock import print_waiting, project_lock

    try:
        # The lock every build and publish takes: a publish never uploads a half-committed build.
        with project_lock(raiz, "eleicoes tse poll --construir", on_wait=print_waiting):
            report = build_site(raiz, raiz / "public")
    except BuildError as exc:
        print(f"{_now()} build falhou, site anterior mantido: {exc}", flush=True)
        return
    print(f"{_now()} build: {report.resumo()}", flush=True)


def _skew(texto: str) -> tuple[str, float]:
    padrao, _, minutos = texto.rpartition("=")
    try:
        return padrao, float(minutos)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"use PADRÃO=MINUTOS, não {texto!r}") from exc


def cmd_servidor(args: argparse.Namespace) -> int:
    """Serve a night folder under the TSE's URL layout until Ctrl+C."""
    falhas = Falhas(
        latencia_s=args.latencia,
        erro_5xx=args.erro_5xx,
        tempo_esgotado=args.tempo_esgotado,
        espera_s=args.espera,
        truncado=args.truncar,
        congelado=dict.fromkeys(args.congelar, 0),
        relogio_min=dict(args.relogio_desviado),
        somas=args.somas_erradas,
        ausente=args.ausente,
        jws_adulterado=args.jws_adulterado,
        avanco_min=args.avanco,
    )
    try:
        server = make_server(Path(args.replay), args.porta, args.intervalo, falhas)
    except (NightError, OSError) as exc:
        return _err(str(exc))
    noite = server.estado.noite
    print(
        f"reprodução de {args.replay}: {len(noite.capturas)} capturas "
        f"({brasilia(noite.capturas[0].instante)} a {brasilia(noite.capturas[-1].instante)}, Brasília)\n"
        f'servindo em {server.url_base}/{noite.ambiente}/... (use url_base = "{server.url_base}" e '
        f'relogio = "servidor" em [tse])\n'
        f"avançar: curl -X POST {server.url_base}/_replay/avancar\n"
        f"estado: {server.url_base}/_replay/estado\n"
        "Ctrl+C para parar.",
        flush=True,
    )
    server.iniciar()
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        print("servidor encerrado.")
    finally:
        server.parar()
    return 0


def cmd_noite_real(args: argparse.Namespace) -> int:
    """Make a night folder from the real 1st-round captures of `shared/datasets/tse/`."""
    try:
        destino = make_partial_night(
            Path(args.destino), Path(args.origem) if args.origem else None, not args.sem_final
        )
    except (NightError, OSError) as exc:
        return _err(str(exc))
    print(f'noite gravada em {destino} (eleição 6257: use uma corrida presidente com eleicao = "6257")')
    return 0


def cmd_noite_sintetica(args: argparse.Namespace) -> int:
    """Make a synthetic runoff night (fictional candidates) for the demo."""
    from jobs.tse.synthetic import make_synthetic_night

    try:
        inicio = dt.datetime.fromisoformat(args.inicio.replace("Z", "+00:00"))
        niveis = [float(x) for x in args.niveis.split(",") if x.strip()]
    except ValueError as exc:
        return _err(f"--inicio ou --niveis inválido: {exc}")
    if inicio.tzinfo is None:
        inicio = inicio.replace(tzinfo=dt.UTC)
    destino = Path(args.destino)
    governadores = [u.strip().lower() for u in args.governadores.split(",") if u.strip()]
    try:
        instantes = make_synthetic_night(
            destino, inicio, niveis, args.passo_min, governadores, args.presidente_por_municipio
        )
    except NightError as exc:
        return _err(str(exc))
    print(f"noite sintética gravada em {destino}: {instantes} capturas")
    return 0


def cmd_auditar(args: argparse.Namespace) -> int:
    """Exit 0 when the snapshot is reproduced exactly; 1 with the problems and the diff otherwise."""
    pasta = Path(args.snapshot)
    if not pasta.is_dir():
        return _err(f"pasta de snapshot não encontrada: {pasta}")
    res = audit_snapshot(pasta)
    for p in res.problemas:
        print(f"PROBLEMA: {p}")
    if res.diff:
        print(res.diff)
    if res.ok:
        print(res.veredito())
        print(f"comando: {res.comando}")
        return 0
    print(res.veredito())
    return 1


def register(sub: Any) -> None:
    """Add `tse` (poll, servidor, noite-real, noite-sintetica) and `auditar` to the parser."""
    tse = sub.add_parser("tse", help="noite da apuração: coleta do TSE, snapshots, servidor de reprodução")
    tse_sub = tse.add_subparsers(dest="subcomando", metavar="SUBCOMANDO", required=True)

    p = tse_sub.add_parser(
        "poll",
        help="consulta o TSE, grava snapshots e projeções (um ciclo ou em laço)",
        description="Consulta os arquivos do TSE configurados em [tse], grava um snapshot por leitura "
        "que mudou (brutos, captura.json, saida.json) e registra uma linha por ciclo.",
    )
    p.add_argument("--once", action="store_true", help="um só ciclo")
    p.add_argument("--construir", action="store_true", help="reconstrói o site após um ciclo com mudança")
    p.add_argument(
        "--config", default=str(CONFIG_FILE), help="arquivo de configuração (padrão: eleicoes.toml)"
    )
    p.add_argument("--url-base", default=None, help="substitui [tse] url_base (ex.: servidor de reprodução)")
    p.add_argument("--dados", default=None, help="pasta de dados (e repositório git) no lugar de data/")
    p.add_argument("--sem-git", action="store_true", help="não faz commit dos snapshots")
    p.add_argument("--relogio", choices=["local", "servidor"], default=None, help="substitui [tse] relogio")
    p.add_argument("--intervalo", type=float, default=None, help="segundos entre ciclos")
    p.set_defaults(func=cmd_poll)

    s = tse_sub.add_parser(
        "servidor",
        help="serve uma noite gravada com o mesmo layout de URLs do TSE, com falhas opcionais",
        description="Servidor de reprodução (só 127.0.0.1). Padrões são globs sobre o nome do arquivo, "
        "com ou sem extensão (ex.: 'sp-c0001-e006258-u').",
    )
    s.add_argument(
        "--replay", required=True, metavar="NOITE_DIR", help="pasta da noite (noite.json, capturas/)"
    )
    s.add_argument("--porta", type=int, default=8001, help="porta (padrão: 8001; 0 = livre)")
    s.add_argument("--intervalo", type=float, default=None, help="avança uma captura a cada S segundos")
    s.add_argument("--latencia", type=float, default=0.0, help="atraso de cada resposta, em segundos")
    s.add_argument("--erro-5xx", action="append", default=[], metavar="PADRÃO", help="responde 503")
    s.add_argument("--tempo-esgotado", action="append", default=[], metavar="PADRÃO", help="não responde")
    s.add_argument("--espera", type=float, default=30.0, help="segundos retidos por --tempo-esgotado")
    s.add_argument("--truncar", action="append", default=[], metavar="PADRÃO", help="corpo pela metade")
    s.add_argument(
        "--congelar", action="append", default=[], metavar="PADRÃO", help="arquivo parado (hg velho)"
    )
    s.add_argument(
        "--relogio-desviado",
        action="append",
        default=[],
        type=_skew,
        metavar="PADRÃO=MIN",
        help="desloca dg/hg e dt/ht em MIN minutos",
    )
    s.add_argument(
        "--somas-erradas", action="append", default=[], metavar="PADRÃO", help="vvc ≠ vv+van+vansj"
    )
    s.add_argument("--ausente", action="append", default=[], metavar="PADRÃO", help="404 NoSuchKey")
    s.add_argument(
        "--jws-adulterado", action="append", default=[], metavar="PADRÃO", help="assinatura inválida"
    )
    s.add_argument(
        "--avanco",
        type=float,
        default=0.0,
        metavar="MIN",
        help="o relógio da noite corre MIN minutos à frente da captura (apuração parada)",
    )
    s.set_defaults(func=cmd_servidor)

    r = tse_sub.add_parser(
        "noite-real", help="monta uma noite com as capturas reais do 1º turno (shared/datasets/tse)"
    )
    r.add_argument("destino", metavar="NOITE_DIR", help="pasta onde a noite é gravada")
    r.add_argument("--origem", default=None, help="pasta datasets/tse (padrão: ../shared/datasets/tse)")
    r.add_argument("--sem-final", action="store_true", help="sem a captura final assinada")
    r.set_defaults(func=cmd_noite_real)

    n = tse_sub.add_parser(
        "noite-sintetica", help="monta uma noite sintética de 2º turno (candidatos fictícios) para a demo"
    )
    n.add_argument("destino", metavar="NOITE_DIR", help="pasta onde a noite é gravada")
    n.add_argument("--inicio", default="2026-10-25T20:30:00Z", help="primeira captura (UTC)")
    n.add_argument("--niveis", default="0.15,0.3,0.45,0.6,0.75,0.9,1.0", help="frações apuradas")
    n.add_argument("--passo-min", type=float, default=10.0, help="minutos entre capturas")
    n.add_argument("--governadores", default="", help="UFs com governador por município (ex.: ac,es)")
    n.add_argument(
        "--presidente-por-municipio",
        action="store_true",
        help="presidente com os 5.570 arquivos municipais (mais os das UFs e o br), para a coleta municipal",
    )
    n.set_defaults(func=cmd_noite_sintetica)

    a = sub.add_parser(
        "auditar",
        help="refaz a projeção de um snapshot e compara com a saida.json guardada",
        description="Confere as assinaturas .jws, os SHA-256 de captura.json e roda o modelo de novo "
        "sobre os arquivos brutos: sai com 0 se tudo bate byte a byte, 1 com as diferenças.",
    )
    a.add_argument("snapshot", metavar="SNAPSHOT_DIR", help="pasta do snapshot guardado (com saida.json)")
    a.set_defaults(func=cmd_auditar)
