"""`eleicoes backtest` and `eleicoes simular-noite` (registered by `model.cli.register`)."""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from model.backtest import chegada, pagina_metodologia, pipeline_regional, regioes
from model.backtest.arquivos import escrever_atomico
from model.backtest.bweb import BwebError, ler_secoes, noite_bweb
from model.backtest.dados import DATASETS_PADRAO, DadosError
from model.backtest.executar import ConfigBacktest, dados_de
from model.backtest.noite import ConfigNoite, escrever_noite
from model.backtest.pipeline import Resultado, executar, noite_2026_1t
from model.backtest.relatorio import PASTA_GRAFICOS, gerar
from model.backtest.replay import preparar, replay_simulado
from model.baselines import BASELINES_DIR, load_baselines
from model.calibration import CALIBRATION_PATH, CalibrationError, load_calibration

RAIZ = Path(__file__).resolve().parents[2]
PASTA_CALIBRACOES = RAIZ / "model" / "calibracoes"
NOITES = ("simulada", "real2026")


def _err(msg: str) -> int:
    print(f"erro: {msg}", file=sys.stderr)
    return 2


class Progresso:
    """tqdm bar on a terminal (if tqdm is installed); otherwise one log line per step on stderr."""

    def __init__(self, total: int, rotulo: str) -> None:
        self.total, self.rotulo, self.feito = total, rotulo, 0
        self._bar: Any = None
        if sys.stderr.isatty():
            try:
                from tqdm import tqdm  # optional, outside the model's import path

                self._bar = tqdm(total=total, desc=rotulo, unit="noite", file=sys.stderr)
            except ImportError:
                self._bar = None

    def __call__(self, n: int = 1) -> None:
        """Advance by `n` steps."""
        self.feito += n
        if self._bar is not None:
            self._bar.update(n)
        else:
            print(f"{self.rotulo}: {self.feito}/{self.total}", file=sys.stderr, flush=True)

    def fechar(self) -> None:
        """Close the bar."""
        if self._bar is not None:
            self._bar.close()


def _lista(texto: str | None) -> tuple[str, ...] | None:
    if not texto:
        return None
    return tuple(sorted({x.strip().lower() for x in texto.split(",") if x.strip()}))


def escrever_resultado(
    res: Resultado, docs: Path, calibracoes: Path, *, instalar: bool, calibracao_em_vigor: Path
) -> list[Path]:
    """Write the calibration file (+ .sha256), docs/BACKTEST.md and the charts; returns the paths."""
    ident = str(res.calibracao["id"])
    sha = hashlib.sha256(res.calibracao_bytes).hexdigest()
    cal_path = calibracoes / f"{ident}.json"
    escrever_atomico(cal_path, res.calibracao_bytes)
    escrever_atomico(calibracoes / f"{ident}.json.sha256", f"{sha}  {ident}.json\n".encode())
    if instalar:
        escrever_atomico(calibracao_em_vigor, res.calibracao_bytes)
    em_vigor = calibracao_em_vigor.is_file() and calibracao_em_vigor.read_bytes() == res.calibracao_bytes
    chegada_obj = json.loads(chegada.PARAMETROS_PATH.read_bytes())
    rel = gerar(res, chegada_obj, em_vigor, sha)
    paths = [cal_path, docs / "BACKTEST.md"]
    texto = rel.markdown
    antigo = docs / "BACKTEST.md"
    regional = (
        pipeline_regional.bloco_existente(antigo.read_text(encoding="utf-8")) if antigo.is_file() else None
    )
    if regional is not None:  # the regional block (eleicoes backtest-regional) is kept as it is
        texto = pipeline_regional.inserir_bloco(texto, regional)
    escrever_atomico(docs / "BACKTEST.md", texto.encode("utf-8"))
    for name, svg in sorted(rel.graficos.items()):
        path = docs / PASTA_GRAFICOS / name
        escrever_atomico(path, svg.encode("utf-8"))
        paths.append(path)
    return paths


def cmd_backtest(args: argparse.Namespace) -> int:
    """Replay the nights, fit the calibration, write it and docs/BACKTEST.md."""
    datasets = Path(args.datasets) if args.datasets else DATASETS_PADRAO
    noites = _lista(args.noites) or NOITES
    unknown = set(noites) - set(NOITES)
    if unknown:
        return _err(f"noite desconhecida: {', '.join(sorted(unknown))} (use {', '.join(NOITES)})")
    if args.sementes < 0 or args.capturas < 2:
        return _err("--sementes deve ser ≥ 0 e --capturas ≥ 2")
    try:
        if args.ajustar_chegada:
            print("ajustando o modelo de chegada às curvas reais...", file=sys.stderr)
            _, obj = chegada.ajustar_e_descrever(dados_de(datasets, None), datasets, args.iteracoes)
            escrever_atomico(chegada.PARAMETROS_PATH, chegada.parametros_bytes(obj))
            print(f"{chegada.PARAMETROS_PATH}: objetivo {obj['objetivo']}", file=sys.stderr)
        params = chegada.carregar_parametros()
        vigente = load_calibration(Path(args.calibracao) if args.calibracao else CALIBRATION_PATH)
        baselines = load_baselines(BASELINES_DIR)
        cfg = ConfigBacktest(
            datasets=datasets,
            sementes=args.sementes if "simulada" in noites else 0,
            semente_inicial=args.semente_inicial,
            capturas=args.capturas,
            municipio=not args.sem_municipio,
            passo_municipio=args.passo_municipio,
            sementes_governador=args.sementes_governador,
            passo_governador=args.passo_governador,
            sementes_1t=args.sementes_1t,
            passo_1t=args.passo_1t,
            ufs=_lista(args.ufs),
        )
        reais = [noite_2026_1t(datasets)] if "real2026" in noites else []
        bar = Progresso(cfg.sementes, "backtest")
        processos = args.processos or min(2, os.cpu_count() or 1)
        res = executar(
            cfg, params, vigente, baselines, noites_reais=reais, processos=processos, progresso=bar
        )
        bar.fechar()
        for path in args.bweb or []:
            _bweb(res, Path(path), cfg)
        docs = Path(args.docs) if args.docs else RAIZ / "docs"
        cals = Path(args.saida_calibracao) if args.saida_calibracao else PASTA_CALIBRACOES
        paths = escrever_resultado(
            res,
            docs,
            cals,
            instalar=args.instalar,
            calibracao_em_vigor=Path(args.calibracao or CALIBRATION_PATH),
        )
    except (DadosError, CalibrationError, BwebError, ValueError, OSError, KeyError) as exc:
        return _err(str(exc))
    sha = hashlib.sha256(res.calibracao_bytes).hexdigest()
    print(f"calibração {res.calibracao['id']} sha256 {sha}")
    for p in paths:
        print(p)
    return 0


def cmd_backtest_regional(args: argparse.Namespace) -> int:
    """Replay in the real regional order, choose and fit the calibration, write it and the report block."""
    datasets = Path(args.datasets) if args.datasets else DATASETS_PADRAO
    if args.sementes < 2 or args.sementes_1t < 0:
        return _err("--sementes deve ser ≥ 2 e --sementes-1t ≥ 0")
    try:
        params = chegada.carregar_parametros()
        if args.ajustar:
            print("ajustando a ordem dentro de cada região às curvas regionais reais...", file=sys.stderr)
            dados = dados_de(datasets, None)
            gs = chegada.grupos(dados)
            fits = {}
            for nid, noite in regioes.ler_noites(datasets).items():
                fits[nid] = regioes.ajustar_noite(params, gs, noite)
            obj = regioes.ajustes_json({k: v[1] for k, v in fits.items()}, {k: v[0] for k, v in fits.items()})
            escrever_atomico(regioes.PARAMETROS_REGIONAIS_PATH, regioes.json_bytes(obj))
        efeitos = regioes.carregar_efeitos()
        cal_path = Path(args.calibracao) if args.calibracao else CALIBRATION_PATH
        # The calibration the report compares with (and whose governor tables are kept).
        vigente = load_calibration(Path(args.comparar) if args.comparar else cal_path)
        cfg = pipeline_regional.ConfigRegional(
            datasets=datasets,
            sementes=args.sementes,
            semente_inicial=args.semente_inicial,
            sementes_1t=args.sementes_1t,
        )
        bar = Progresso(pipeline_regional.total_noites(cfg), "backtest-regional")
        processos = args.processos or min(2, os.cpu_count() or 1)
        res = pipeline_regional.executar(cfg, params, efeitos, vigente, processos=processos, progresso=bar)
        bar.fechar()
        cals = Path(args.saida_calibracao) if args.saida_calibracao else PASTA_CALIBRACOES
        ident = str(res.calibracao["id"])
        sha = hashlib.sha256(res.calibracao_bytes).hexdigest()
        escrever_atomico(cals / f"{ident}.json", res.calibracao_bytes)
        escrever_atomico(cals / f"{ident}.json.sha256", f"{sha}  {ident}.json\n".encode())
        if args.instalar:
            escrever_atomico(cal_path, res.calibracao_bytes)
        em_vigor = cal_path.is_file() and cal_path.read_bytes() == res.calibracao_bytes
        ajuste = json.loads(regioes.PARAMETROS_REGIONAIS_PATH.read_bytes())
        docs = Path(args.docs) if args.docs else RAIZ / "docs"
        md = docs / "BACKTEST.md"
        texto = md.read_text(encoding="utf-8") if md.is_file() else "# Backtest of the projection\n"
        bloco = pipeline_regional.bloco(res, ajuste, sha, em_vigor)
        escrever_atomico(md, pipeline_regional.inserir_bloco(texto, bloco).encode("utf-8"))
        # The method page quotes the calibration in force and this run's report (captures per group),
        # so it is rewritten after both.
        if args.instalar and cal_path == CALIBRATION_PATH and md == RAIZ / "docs" / "BACKTEST.md":
            pagina_metodologia.regenerar()
    except (DadosError, CalibrationError, ValueError, OSError, KeyError) as exc:
        return _err(str(exc))
    print(f"calibração {ident} sha256 {sha} (quantil {res.quantil:g})")
    print(md)
    return 0


def _bweb(res: Resultado, path: Path, cfg: ConfigBacktest) -> None:
    """Replay a real night from bweb files and add its scores (`bweb-<file stem>`)."""
    from model.backtest.metricas import pontuar

    noite, aloc = noite_bweb(ler_secoes([path]), cfg.capturas)
    c = preparar(
        noite,
        aloc,
        chave="presidente",
        variante="uf",
        nivel="uf",
        cargo="presidente",
        eleicao="545",
        turno=2,
        uf=None,
        baselines=dados_de(cfg.datasets, cfg.ufs).bases,
    )
    nid = f"bweb-{path.stem}"
    lines = replay_simulado(nid, noite, c, list(range(len(noite.capturas))), res.calibracao_vigente)
    res.reais[nid] = lines
    res.pontos[nid] = [pontuar(ln, res.calibracao_nova) for ln in lines]


def cmd_simular_noite(args: argparse.Namespace) -> int:
    """Write a simulated night folder for the replay server."""
    datasets = Path(args.datasets) if args.datasets else DATASETS_PADRAO
    try:
        cfg = ConfigNoite(
            semente=args.semente,
            capturas=args.capturas,
            eleicao_presidente=args.eleicao_presidente,
            eleicao_governador=args.eleicao_governador,
            governadores=_lista(args.governadores) or (),
            df_zonas=not args.sem_df_zonas,
            municipios_presidente=args.municipios_presidente,
        )
        ufs = None
        if args.so_ufs:
            ufs = _lista(args.so_ufs)
        dados = dados_de(datasets, ufs)
        step: Callable[[int, int], None] = lambda k, n: print(  # noqa: E731
            f"simular-noite: captura {k}/{n}", file=sys.stderr, flush=True
        )
        folders = escrever_noite(Path(args.saida), dados, chegada.carregar_parametros(), cfg, step)
    except (DadosError, ValueError, OSError, KeyError) as exc:
        return _err(str(exc))
    print(f"{args.saida}: {len(folders)} capturas")
    return 0


def register(sub: Any) -> None:
    """Add `backtest`, `backtest-regional` and `simular-noite` to an argparse subparsers object."""
    b = sub.add_parser(
        "backtest",
        help="reproduz noites de apuração, ajusta a calibração e gera docs/BACKTEST.md",
        description="Reproduz noites simuladas (2º turno de 2022) e as capturas reais de 2026, roda o "
        "modelo em "
        "cada captura, mede os erros por faixa de apuração e ajusta a curva de deriva e as faixas.",
    )
    b.add_argument("--noites", default=None, help="noites a reproduzir: simulada,real2026 (padrão: as duas)")
    b.add_argument("--sementes", type=int, default=100, help="noites simuladas (padrão: 100)")
    b.add_argument("--semente-inicial", type=int, default=0, help="primeira semente (padrão: 0)")
    b.add_argument("--capturas", type=int, default=200, help="capturas por noite simulada (padrão: 200)")
    b.add_argument("--processos", type=int, default=0, help="processos em paralelo (padrão: até 2)")
    b.add_argument("--ufs", default=None, help="restringe a simulação a estas UFs (ex.: ac,rr)")
    b.add_argument(
        "--sem-municipio", action="store_true", help="não roda a variante presidente por município"
    )
    b.add_argument("--passo-municipio", type=int, default=20, help="variante por município a cada N capturas")
    b.add_argument("--sementes-governador", type=int, default=20, help="noites com as disputas estaduais")
    b.add_argument("--passo-governador", type=int, default=10, help="disputas estaduais a cada N capturas")
    b.add_argument("--sementes-1t", type=int, default=20, help="noites com o 1º turno simulado")
    b.add_argument("--passo-1t", type=int, default=5, help="1º turno a cada N capturas")
    b.add_argument(
        "--bweb", nargs="*", default=None, metavar="ARQUIVO", help="arquivos bweb (.zip/.csv) do TSE"
    )
    b.add_argument("--datasets", default=None, help="pasta shared/datasets")
    b.add_argument("--docs", default=None, help="pasta do relatório (padrão: docs/)")
    b.add_argument(
        "--saida-calibracao", default=None, help="pasta das calibrações (padrão: model/calibracoes)"
    )
    b.add_argument(
        "--instalar", action="store_true", help="copia a calibração ajustada para model/calibracao.json"
    )
    b.add_argument("--ajustar-chegada", action="store_true", help="reajusta o modelo de chegada antes")
    b.add_argument("--iteracoes", type=int, default=500, help=argparse.SUPPRESS)
    b.add_argument("--calibracao", default=None, help=argparse.SUPPRESS)
    b.set_defaults(func=cmd_backtest)

    r = sub.add_parser(
        "backtest-regional",
        help="reproduz as noites na ordem real de chegada por região e escolhe a calibração",
        description="Noites do 2º turno de 2022 na ordem regional real (deriva escalada 0,5x, 1x, 1,75x) "
        "e os 1ºs turnos de 2022 e 2026 na sua ordem regional real; detalhe dentro da região simulado. "
        "Escolhe e ajusta a calibração e atualiza o bloco regional de docs/BACKTEST.md.",
    )
    r.add_argument("--sementes", type=int, default=100, help="noites por escala de deriva (padrão: 100)")
    r.add_argument("--semente-inicial", type=int, default=0, help="primeira semente (padrão: 0)")
    r.add_argument("--sementes-1t", type=int, default=20, help="noites por 1º turno real (padrão: 20)")
    r.add_argument("--processos", type=int, default=0, help="processos em paralelo (padrão: até 2)")
    r.add_argument("--ajustar", action="store_true", help="reajusta a ordem dentro das regiões antes")
    r.add_argument("--instalar", action="store_true", help="copia a calibração para model/calibracao.json")
    r.add_argument("--datasets", default=None, help="pasta shared/datasets")
    r.add_argument("--docs", default=None, help="pasta do relatório (padrão: docs/)")
    r.add_argument(
        "--saida-calibracao", default=None, help="pasta das calibrações (padrão: model/calibracoes)"
    )
    r.add_argument(
        "--comparar",
        default=None,
        help="calibração com que o relatório compara e de que mantém as faixas de governador "
        "(padrão: a em vigor; a publicada foi gerada comparando com "
        "tests/fixtures/calibracao/bt2022h26-v31-provisoria.json)",
    )
    r.add_argument("--calibracao", default=None, help=argparse.SUPPRESS)
    r.set_defaults(func=cmd_backtest_regional)

    n = sub.add_parser(
        "simular-noite",
        help="grava uma noite simulada (capturas no formato do TSE) para o servidor de replay",
        description="Gera uma noite inteira de capturas no formato do TSE a partir dos resultados de 2022.",
    )
    n.add_argument("saida", metavar="PASTA_DA_NOITE", help="pasta onde a noite é gravada")
    n.add_argument("--semente", type=int, default=0, help="semente do sorteio (padrão: 0)")
    n.add_argument("--capturas", type=int, default=60, help="capturas na noite (padrão: 60)")
    n.add_argument(
        "--eleicao-presidente", default="6258", help="código da eleição de presidente (padrão: 6258)"
    )
    n.add_argument(
        "--eleicao-governador", default="6260", help="código da eleição de governador (padrão: 6260)"
    )
    n.add_argument("--governadores", default="am,es", help="UFs com 2º turno de governador em 2022 a incluir")
    n.add_argument("--sem-df-zonas", action="store_true", help="não grava o DF por zona")
    n.add_argument(
        "--municipios-presidente", action="store_true", help="grava também o presidente por município"
    )
    n.add_argument("--so-ufs", default=None, help=argparse.SUPPRESS)
    n.add_argument("--datasets", default=None, help="pasta shared/datasets")
    n.set_defaults(func=cmd_simular_noite)
