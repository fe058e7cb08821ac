"""Subcommands of `eleicoes debate` owned by the engine (issue 7): placar, atualizar, editar."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from jobs.debate import placar as etapa_placar
from jobs.debate.armazenamento import TEXTO_MAX, ErroDebate, ler_debate
from jobs.debate.config import ErroConfig, carregar
from jobs.debate.edicoes import (
    EdicaoChecagem,
    EdicaoLocutor,
    EdicaoPergunta,
    EdicaoTranscricao,
    Edicoes,
    Fonte,
    gravar_edicoes,
    ler_edicoes,
    validar_checagem,
    validar_locutor,
)

PASTA_DEBATES = Path("data/debates")
CONFIG = Path("eleicoes.toml")


def register(sub: Any) -> None:
    """Add this part's subcommands to the `eleicoes debate` parser."""
    p = sub.add_parser("placar", help="calcula o placar (placar.json) de um arquivo de avaliações")
    p.add_argument(
        "avaliacoes", type=Path, metavar="AVALIACOES.json", help="turnos, checagens e falas avaliados"
    )
    p.set_defaults(func=_placar)

    a = sub.add_parser("atualizar", help="roda um ciclo do debate: turnos, avaliações, checagens e placar")
    _comuns(a)
    a.add_argument(
        "--reavaliar", action="store_true", help="descarta avaliações e checagens guardadas e refaz"
    )
    a.set_defaults(func=_atualizar)

    e = sub.add_parser(
        "editar", help="correções do editor durante o debate (a decisão do editor sempre vale)"
    )
    _comuns(e)
    e.add_argument("--editor", default="", help="nome de quem edita (fica no registro)")
    e.add_argument("--sem-atualizar", action="store_true", help="só grava a edição; o próximo ciclo aplica")
    acoes = e.add_subparsers(dest="acao", metavar="AÇÃO", required=True)

    loc = acoes.add_parser("locutor", help="diz quem é a voz de um rótulo da transcrição")
    loc.add_argument("rotulo", help="rótulo do locutor na transcrição (ex.: VOZ_07)")
    loc.add_argument(
        "--papel",
        required=True,
        choices=("candidato", "moderador", "jornalista", "eleitor"),
        help="papel da voz no debate",
    )
    loc.add_argument("--candidato", default="", help="id do candidato (quando o papel é candidato)")
    loc.add_argument("--nome", default="", help="nome mostrado na página")
    loc.set_defaults(acao_func=_editar_locutor)

    fala = acoes.add_parser("fala", help="corrige quem disse uma fala")
    fala.add_argument("fala", help="id da fala (ex.: f0012)")
    fala.add_argument("--locutor", required=True, help="rótulo correto do locutor")
    fala.set_defaults(acao_func=_editar_fala)

    perg = acoes.add_parser("pergunta", help="marca a pergunta em vigor de um turno")
    perg.add_argument("turno", help="id do turno (ex.: t-f0010)")
    grupo = perg.add_mutually_exclusive_group(required=True)
    grupo.add_argument("--texto", help="texto da pergunta")
    grupo.add_argument("--fala", help="id da fala que contém a pergunta")
    grupo.add_argument("--nenhuma", action="store_true", help="o turno não responde a pergunta alguma")
    grupo.add_argument(
        "--automatica", action="store_true", help="desfaz a marcação: volta à regra automática"
    )
    perg.set_defaults(acao_func=_editar_pergunta)

    chk = acoes.add_parser("checagem", help="oculta ou corrige uma checagem")
    chk.add_argument("checagem", help="id da checagem (ex.: t-f0013-c1)")
    vis = chk.add_mutually_exclusive_group()
    vis.add_argument("--ocultar", action="store_true", help="tira a checagem da página e da nota")
    vis.add_argument("--mostrar", action="store_true", help="volta a mostrar a checagem")
    chk.add_argument(
        "--veredito",
        choices=("verdadeiro", "impreciso", "enganoso", "falso", "sem_dados"),
        help="veredito corrigido",
    )
    chk.add_argument("--confianca", choices=("alta", "baixa"), help="confiança corrigida")
    chk.add_argument("--explicacao", help="explicação corrigida")
    chk.add_argument("--fonte", nargs=2, action="append", metavar=("TITULO", "URL"), help="fonte (repetível)")
    chk.add_argument("--motivo", default="", help="por que o editor corrigiu")
    chk.add_argument("--desfazer", action="store_true", help="remove a correção: volta ao que a máquina fez")
    chk.set_defaults(acao_func=_editar_checagem)

    trn = acoes.add_parser(
        "transcricao",
        help="libera um turno (ou seus itens) com transcrição em revisão: confirma o texto ou o corrige",
        description=(
            "Um turno cuja transcrição automática saiu com pouca confiança fica em revisão: não recebe "
            "nota nem checagem até o editor confirmar o texto (--confirmar) ou corrigi-lo (--texto). "
            "O mesmo vale para os itens do turno (propostas, afirmações, ataque) ouvidos com pouca "
            "certeza; a pergunta em revisão se libera marcando-a (editar ... pergunta)."
        ),
    )
    trn.add_argument("turno", help="id do turno (ex.: t-f0012)")
    grupo_t = trn.add_mutually_exclusive_group(required=True)
    grupo_t.add_argument("--confirmar", action="store_true", help="a transcrição está certa como está")
    grupo_t.add_argument("--texto", help="o texto correto do que o candidato disse no turno")
    grupo_t.add_argument("--desfazer", action="store_true", help="remove a decisão: volta à regra automática")
    trn.set_defaults(acao_func=_editar_transcricao)

    enc = acoes.add_parser("encerrar", help="marca o debate como encerrado (o último turno é avaliado)")
    enc.set_defaults(acao_func=_encerrar)
    reab = acoes.add_parser("reabrir", help="desfaz o encerramento")
    reab.set_defaults(acao_func=_reabrir)
    e.set_defaults(func=_editar)


def _comuns(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "debate", metavar="DEBATE_ID", help="id do debate (pasta em data/debates/) ou caminho da pasta"
    )
    p.add_argument(
        "--dados", type=Path, default=PASTA_DEBATES, help="pasta dos debates (padrão: data/debates)"
    )
    p.add_argument(
        "--config", type=Path, default=CONFIG, help="arquivo de configuração (padrão: eleicoes.toml)"
    )


def _pasta(args: argparse.Namespace) -> Path:
    alvo = Path(args.debate)
    return alvo if "/" in args.debate else args.dados / args.debate


def _erro(mensagem: str) -> int:
    print(f"erro: {mensagem}", file=sys.stderr)
    return 1


def _placar(args: argparse.Namespace) -> int:
    try:
        dados = json.loads(args.avaliacoes.read_text(encoding="utf-8"))
        resultado = etapa_placar.calcular(etapa_placar.ler_entrada(dados))
    except FileNotFoundError:
        return _erro(f"{args.avaliacoes}: arquivo não encontrado")
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        return _erro(f"{args.avaliacoes}: JSON inválido: {exc}")
    except etapa_placar.ErroPlacar as exc:
        return _erro(f"{args.avaliacoes}: {exc}")
    print(json.dumps(resultado, ensure_ascii=False, indent=1))
    return 0


def _ciclo(args: argparse.Namespace, pasta: Path, reavaliar: bool = False) -> int:
    from jobs.debate.pipeline import executar  # the LLM client: only the commands that run a cycle

    try:
        config = carregar(args.config)
        ciclo = executar(pasta, config, reavaliar=reavaliar)
    except (ErroDebate, ErroConfig, etapa_placar.ErroPlacar) as exc:
        return _erro(str(exc))
    manchete = ciclo.placar.get("manchete", {})
    lider = manchete.get("lider")
    if lider:
        situacao = f"lidera: {ciclo.debate.candidatos().get(lider, lider)}"
    elif manchete.get("empate_tecnico"):
        situacao = "empate técnico"
    else:
        situacao = "sem líder definido"
    gravados = ", ".join(ciclo.arquivos_gravados) or "nada mudou"
    novas = len(ciclo.turnos_avaliados_agora)
    print(f"{ciclo.debate.id}: {novas} avaliações novas; {situacao}; gravados: {gravados}")
    for aviso in ciclo.avisos:
        print(f"aviso: {aviso}", file=sys.stderr)
    return 0


def _atualizar(args: argparse.Namespace) -> int:
    return _ciclo(args, _pasta(args), reavaliar=args.reavaliar)


def _editar(args: argparse.Namespace) -> int:
    pasta = _pasta(args)
    try:
        debate = ler_debate(pasta)
        edicoes = ler_edicoes(pasta, set(debate.candidatos()))
        nova, descricao = args.acao_func(args, edicoes, set(debate.candidatos()))
        gravar_edicoes(pasta, nova, descricao, args.editor)
    except ErroDebate as exc:
        return _erro(str(exc))
    print(f"edição gravada: {descricao}")
    if args.sem_atualizar:
        return 0
    return _ciclo(args, pasta)


def _editar_locutor(args: argparse.Namespace, e: Edicoes, candidatos: set[str]) -> tuple[Edicoes, str]:
    nova = EdicaoLocutor(args.papel, args.nome or args.rotulo, args.candidato)
    validar_locutor(nova, candidatos, f"locutor {args.rotulo}")
    descricao = f"locutor {args.rotulo} é {args.papel}" + (f" ({args.candidato})" if args.candidato else "")
    return replace(e, locutores={**e.locutores, args.rotulo: nova}), descricao


def _editar_fala(args: argparse.Namespace, e: Edicoes, candidatos: set[str]) -> tuple[Edicoes, str]:
    del candidatos
    return replace(e, falas={**e.falas, args.fala: args.locutor}), f"fala {args.fala} é de {args.locutor}"


def _editar_pergunta(args: argparse.Namespace, e: Edicoes, candidatos: set[str]) -> tuple[Edicoes, str]:
    del candidatos
    perguntas = dict(e.perguntas)
    if args.automatica:
        perguntas.pop(args.turno, None)
        return replace(e, perguntas=perguntas), f"turno {args.turno}: pergunta automática"
    if args.texto is not None and not args.texto.strip():
        raise ErroDebate("--texto: a pergunta não pode ficar vazia")
    perguntas[args.turno] = EdicaoPergunta(
        texto=(args.texto or "").strip(), fala=args.fala or "", nenhuma=args.nenhuma
    )
    return replace(e, perguntas=perguntas), f"turno {args.turno}: pergunta marcada pelo editor"


def _editar_checagem(args: argparse.Namespace, e: Edicoes, candidatos: set[str]) -> tuple[Edicoes, str]:
    del candidatos
    checagens = dict(e.checagens)
    if args.desfazer:
        checagens.pop(args.checagem, None)
        return replace(e, checagens=checagens), f"checagem {args.checagem}: correção desfeita"
    atual = checagens.get(args.checagem, EdicaoChecagem())
    oculta = True if args.ocultar else False if args.mostrar else atual.oculta
    nova = EdicaoChecagem(
        oculta=oculta,
        veredito=args.veredito or atual.veredito,
        confianca=args.confianca or atual.confianca,
        explicacao=args.explicacao or atual.explicacao,
        fontes=tuple(Fonte(t, u) for t, u in args.fonte) if args.fonte else atual.fontes,
        motivo=args.motivo or atual.motivo,
    )
    if nova == atual:
        raise ErroDebate(
            "nada a mudar: use --ocultar, --mostrar, --veredito, --confianca, --explicacao ou --fonte"
        )
    validar_checagem(nova, f"checagem {args.checagem}")
    partes = [x for x in ("oculta" if args.ocultar else "", "visível" if args.mostrar else "") if x]
    if nova.corrige:
        partes.append(f"veredito {nova.veredito}" if args.veredito else "corrigida")
    checagens[args.checagem] = nova
    return replace(e, checagens=checagens), f"checagem {args.checagem}: {', '.join(partes) or 'corrigida'}"


def _editar_transcricao(args: argparse.Namespace, e: Edicoes, candidatos: set[str]) -> tuple[Edicoes, str]:
    del candidatos
    transcricoes = dict(e.transcricoes)
    if args.desfazer:
        transcricoes.pop(args.turno, None)
        return replace(
            e, transcricoes=transcricoes
        ), f"turno {args.turno}: transcrição volta à regra automática"
    if args.texto is not None:
        texto = " ".join(args.texto.split())
        if not texto:
            raise ErroDebate("--texto: o texto corrigido não pode ficar vazio")
        if len(texto) > TEXTO_MAX:
            raise ErroDebate(f"--texto: mais de {TEXTO_MAX} caracteres")
        transcricoes[args.turno] = EdicaoTranscricao(texto)
        return replace(e, transcricoes=transcricoes), f"turno {args.turno}: transcrição corrigida pelo editor"
    transcricoes[args.turno] = EdicaoTranscricao()
    return replace(e, transcricoes=transcricoes), f"turno {args.turno}: transcrição confirmada pelo editor"


def _encerrar(args: argparse.Namespace, e: Edicoes, candidatos: set[str]) -> tuple[Edicoes, str]:
    del args, candidatos
    return replace(e, encerrado=True), "debate encerrado"


def _reabrir(args: argparse.Namespace, e: Edicoes, candidatos: set[str]) -> tuple[Edicoes, str]:
    del args, candidatos
    return replace(e, encerrado=False), "debate reaberto"
