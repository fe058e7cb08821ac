"""Speech-to-text quality and speed: word error rate (WER) and real-time factor (RTF) per model.

Corpus, made on this machine (references are the texts that were spoken):
- fictional debate sentences read by several espeak-ng Portuguese voices (Brazil and Portugal,
  male and female variants) at several speeds;
- each clip clean, and mixed by sox with white noise, pink noise and a synthetic pulsing chord
  ("music") at several signal-to-noise ratios.
No registry package ships real Portuguese speech with a transcript that could be used here (a brief
search found none), so every clip is synthetic: the WER is that of espeak-ng's robotic voice, not of
a studio debate, and is useful to compare models and conditions, not as an absolute figure.

Models: the packaged Whisper sizes (int8, 2 threads, the audio job's decoding options through its
Transcritor). A size whose packages are missing or incomplete is reported with the reason.

    python benchmarks/asr_bench.py [--threads 2] [--modelos base,small] [--sem-escrever]

Writes a section of docs/PERFORMANCE.md (RTF, machine, load) and of docs/QUALIDADE.md (WER).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import re
import subprocess
import sys
import tempfile
import time
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.report import machine_description, write_section  # noqa: E402
from jobs.debate.audio import TAXA, Amostras, ler_wav, para_wav  # noqa: E402
from jobs.debate.config_audio import ConfigAudio  # noqa: E402
from jobs.debate.demo_audio import espeak_disponivel, sintetizar  # noqa: E402
from jobs.debate.modelo_whisper import (  # noqa: E402
    PACOTES,
    PARTES,
    ErroModelo,
    _arquivos_do_pacote,
    carregar_modelo,
    pasta_do_tamanho,
    resolver_modelo,
    tensores_faltando,
)
from jobs.debate.transcricao import OpcoesWhisper, Transcritor  # noqa: E402
from site_builder.marked_section import write_marked_section  # noqa: E402

QUALIDADE_MD = REPO / "docs" / "QUALIDADE.md"
SECAO = "Transcrição: Whisper base e small"
COMANDO = "python benchmarks/asr_bench.py --threads 2"

# Fictional debate lines (no digits: espeak reads them in words, Whisper may write digits).
FRASES = (
    "Boa noite a todos os eleitores que acompanham este debate.",
    "A saúde pública precisa de mais médicos nas cidades do interior.",
    "O meu adversário prometeu escolas novas e não entregou nenhuma.",
    "Vamos ampliar o transporte coletivo e reduzir o preço da passagem.",
    "A segurança melhorou quando a polícia passou a trabalhar com as prefeituras.",
    "O dinheiro para essa proposta vem do corte de gastos com publicidade.",
    "A senhora não respondeu à pergunta sobre o saneamento básico.",
    "Quero agradecer a todos e pedir o seu voto no próximo domingo.",
)
# (espeak-ng voice, words per minute, pitch); each voice reads half of the sentences.
VOZES = (
    ("pt-br", 150, 50),
    ("pt-br+f3", 165, 60),
    ("pt-br+m3", 185, 40),
    ("pt", 140, 50),
)
# (name, sox synth arguments or None for clean, SNR in dB)
CONDICOES: tuple[tuple[str, tuple[str, ...] | None, float | None], ...] = (
    ("limpo", None, None),
    ("ruído branco 10 dB", ("whitenoise",), 10.0),
    ("ruído rosa 5 dB", ("pinknoise",), 5.0),
    ("música 10 dB", ("sine", "196", "sine", "247", "sine", "294", "sine", "392"), 10.0),
    ("música 0 dB", ("sine", "196", "sine", "247", "sine", "294", "sine", "392"), 0.0),
)
EFEITO_MUSICA = ("tremolo", "4", "70")
RTF_MAX = 0.5  # the bound for the default model on 2 cores


@dataclass(frozen=True)
class Clipe:
    """One spoken sentence: its reference text, voice and audio."""

    texto: str
    voz: str
    amostras: Amostras


@dataclass
class Resultado:
    """Errors and time of one model on one condition."""

    erros: int = 0
    palavras: int = 0
    segundos_audio: float = 0.0
    segundos_cpu: float = 0.0

    @property
    def wer(self) -> float:
        """Word error rate (substitutions + deletions + insertions over reference words)."""
        return self.erros / self.palavras if self.palavras else 0.0

    @property
    def rtf(self) -> float:
        """Transcription time over audio time."""
        return self.segundos_cpu / self.segundos_audio if self.segundos_audio else 0.0


def palavras(texto: str) -> list[str]:
    """Lower-case words without punctuation (accents kept: a wrong accent is a wrong word)."""
    texto = unicodedata.normalize("NFC", texto.lower())
    return re.sub(r"[^\w\s]", " ", texto).split()


def distancia(ref: list[str], hip: list[str]) -> int:
    """Word-level Levenshtein distance."""
    anterior = list(range(len(hip) + 1))
    for i, r in enumerate(ref, 1):
        atual = [i]
        for j, h in enumerate(hip, 1):
            atual.append(min(anterior[j] + 1, atual[j - 1] + 1, anterior[j - 1] + (r != h)))
        anterior = atual
    return anterior[-1]


def clipes() -> list[Clipe]:
    """Each voice reads half of the sentences (alternating halves), clean."""
    saida = []
    for k, (voz, velocidade, altura) in enumerate(VOZES):
        for frase in FRASES[k % 2 :: 2]:
            rotulo = f"{voz} {velocidade} ppm"
            saida.append(Clipe(frase, rotulo, sintetizar(frase, voz, velocidade, altura)))
    return saida


def _rms(x: Amostras) -> float:
    return float(np.sqrt(np.mean(np.square(x, dtype=np.float64)))) if len(x) else 0.0


def misturar(fala: Amostras, sintese: tuple[str, ...], snr_db: float, pasta: Path) -> Amostras:
    """The speech mixed by sox with a synthesised noise or chord at `snr_db`."""
    duracao = f"{len(fala) / TAXA:.3f}"
    voz, ruido, saida = pasta / "voz.wav", pasta / "ruido.wav", pasta / "mistura.wav"
    voz.write_bytes(para_wav(fala))
    efeito = EFEITO_MUSICA if sintese[0] == "sine" else ()
    comando = ["sox", "-n", "-r", str(TAXA), "-c", "1", "-b", "16", str(ruido), "synth", duracao]
    subprocess.run([*comando, *sintese, *efeito], check=True, capture_output=True, timeout=60)
    ganho = _rms(fala) / max(_rms(ler_wav(ruido)), 1e-9) / (10 ** (snr_db / 20))
    subprocess.run(
        ["sox", "-m", "-v", "1", str(voz), "-v", f"{ganho:.6f}", str(ruido), str(saida), "gain", "-n", "-1"],
        check=True,
        capture_output=True,
        timeout=60,
    )
    return ler_wav(saida)


def corpus(pasta: Path) -> dict[str, list[Clipe]]:
    """Every clip in every condition."""
    limpos = clipes()
    saida: dict[str, list[Clipe]] = {}
    for nome, sintese, snr in CONDICOES:
        if sintese is None or snr is None:
            saida[nome] = limpos
        else:
            saida[nome] = [Clipe(c.texto, c.voz, misturar(c.amostras, sintese, snr, pasta)) for c in limpos]
    return saida


def medir(modelo: object, clipes_: list[Clipe], threads: int) -> Resultado:
    """WER and RTF of one loaded model over clips (the audio job's Transcritor and options)."""
    padrao = ConfigAudio()
    transcritor = Transcritor(modelo, OpcoesWhisper(padrao.whisper_idioma, padrao.whisper_feixe))
    r = Resultado()
    for clipe in clipes_:
        inicio = time.perf_counter()
        hip = " ".join(w.p for w in transcritor.transcrever(clipe.amostras, 0.0))
        r.segundos_cpu += time.perf_counter() - inicio
        ref = palavras(clipe.texto)
        r.erros += distancia(ref, palavras(hip))
        r.palavras += len(ref)
        r.segundos_audio += len(clipe.amostras) / TAXA
    return r


def por_que_indisponivel(tamanho: str, erro: ErroModelo) -> str:
    """The load error, and whether the packaged parts would even form a whole model."""
    motivo = str(erro)
    try:
        partes = {**_arquivos_do_pacote(PACOTES[tamanho][0]), **_arquivos_do_pacote(PACOTES[tamanho][1])}
    except ErroModelo:
        return motivo
    if not all(p in partes for p in PARTES):
        return motivo
    with tempfile.TemporaryDirectory() as tmp:
        unido = Path(tmp) / "model.bin"
        with unido.open("wb") as saida:
            for p in PARTES:
                saida.write(partes[p].caminho.read_bytes())
        falta = tensores_faltando(unido)
        total = unido.stat().st_size
    if falta:
        motivo += f"; as duas partes unidas ({total / 2**20:.0f} MiB) não formam o modelo: {falta}"
    return motivo


def main(argv: list[str] | None = None) -> int:
    """Build the corpus, measure each model, print and write the sections."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--modelos", default="base,small")
    parser.add_argument("--sem-escrever", action="store_true")
    args = parser.parse_args(argv)
    if not espeak_disponivel():
        print("erro: espeak-ng não está instalado", file=sys.stderr)
        return 1
    carga_antes = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        condicoes = corpus(Path(tmp))
    n_clipes = len(next(iter(condicoes.values())))
    segundos_limpos = sum(len(c.amostras) for c in next(iter(condicoes.values()))) / TAXA
    resultados: dict[str, dict[str, Resultado]] = {}
    indisponiveis: dict[str, str] = {}
    cache = REPO / ConfigAudio().whisper_cache
    for tamanho in args.modelos.split(","):
        try:
            caminho = resolver_modelo("", cache, tamanho)
            modelo = carregar_modelo(caminho, args.threads)
        except ErroModelo as exc:
            indisponiveis[tamanho] = por_que_indisponivel(tamanho, exc)
            print(f"{tamanho}: indisponível: {indisponiveis[tamanho]}", flush=True)
            continue
        resultados[tamanho] = {}
        for nome, clipes_ in condicoes.items():
            r = medir(modelo, clipes_, args.threads)
            resultados[tamanho][nome] = r
            print(f"{tamanho:6} {nome:22} WER {100 * r.wer:5.1f}%  RTF {r.rtf:.3f}", flush=True)
    carga_depois = os.getloadavg()
    hoje = dt.datetime.now(dt.UTC).date().isoformat()
    carga = (
        f"carga média do sistema (1 min) {carga_antes[0]:.1f} no início e {carga_depois[0]:.1f} no fim, "
        f"em {os.cpu_count()} núcleos compartilhados com outros processos"
    )
    cabecalho = (
        f"Corpus: {n_clipes} frases fictícias de debate ({segundos_limpos:.0f} s de fala limpa), "
        f"{len(VOZES)} vozes do espeak-ng ({', '.join(f'{v} {s} ppm' for v, s, _a in VOZES)}), cada uma "
        f"lendo metade das frases; {len(CONDICOES)} condições (limpo e misturas feitas pelo sox). "
        "Fala sintética: os números comparam modelos e condições, não prometem o erro num debate real "
        "(nenhum pacote de registro traz fala real em português com transcrição)."
    )
    linhas_wer = ["| condição | " + " | ".join(resultados) + " |", "|---|" + "---:|" * len(resultados)]
    linhas_rtf = ["| condição | " + " | ".join(resultados) + " |", "|---|" + "---:|" * len(resultados)]
    for nome in condicoes:
        linhas_wer.append(
            f"| {nome} | "
            + " | ".join(f"{100 * r[nome].wer:.1f}%".replace(".", ",") for r in resultados.values())
            + " |"
        )
        linhas_rtf.append(
            f"| {nome} | " + " | ".join(f"{r[nome].rtf:.3f}" for r in resultados.values()) + " |"
        )
    sem = [f"- `{t}`: não medido. {motivo}." for t, motivo in indisponiveis.items()]
    padrao = ConfigAudio()
    rapidos = [t for t, r in resultados.items() if max(x.rtf for x in r.values()) <= RTF_MAX]
    escolha = (
        f"Regra do modelo padrão (`[debate] whisper_tamanho`): o mais preciso com RTF ≤ "
        f"{RTF_MAX:g} em 2 núcleos. Nesta execução, mediram-se {', '.join(resultados) or 'nenhum'}; "
        f"com RTF ≤ {RTF_MAX:g} em todas as condições: {', '.join(rapidos) or 'nenhum (máquina carregada)'}. "
        f"O padrão é **{padrao.whisper_tamanho}**"
        + (", o único tamanho empacotado que carrega" if indisponiveis and len(resultados) == 1 else "")
        + ". Com outro modelo "
        f"configurado, o job volta ao base quando há mais de {padrao.whisper_atraso_max_s:g} s de áudio "
        "esperando transcrição (`whisper_atraso_max_s`; `jobs/debate/escolha_modelo.py`)."
    )
    qualidade = "\n".join(
        [
            f"## {SECAO}",
            "",
            f"Medido em {hoje} com `{COMANDO}` (int8, {args.threads} threads, as opções de decodificação "
            f"do job de áudio). {cabecalho}",
            "",
            "**Taxa de erro de palavras (WER)**, por modelo e condição:",
            "",
            *linhas_wer,
            "",
            *sem,
            "",
            escolha,
        ]
    )
    performance = "\n".join(
        [
            f"Real-time factor (transcription seconds per second of audio), int8, {args.threads} threads; "
            f"{carga} (the machine was shared: RTF on an idle machine is lower).",
            "",
            *linhas_rtf,
            "",
            *(f"- `{t}`: not measured: {motivo}." for t, motivo in indisponiveis.items()),
            "",
            f"WER in docs/QUALIDADE.md ({SECAO}).",
        ]
    )
    print(qualidade)
    print(performance)
    if not args.sem_escrever:
        write_marked_section(QUALIDADE_MD, SECAO, qualidade)
        write_section("ASR: Whisper base and small", COMANDO, performance)
    print(f"máquina: {machine_description()}; {carga}; pasta do small: {pasta_do_tamanho(cache, 'small')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
