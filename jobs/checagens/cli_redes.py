"""Subcommands for capture, queue, memory and drafts.

`eleicoes redes capturar|coletar` and `eleicoes checagens fila|rascunho|descartar|memoria ...`.
Everything printed from a post is untrusted: control and bidi characters are removed first.
Each subcommand imports the modules it runs (capture, embeddings, LLM) when it runs, so the others,
and `eleicoes checagens validar` beside them, do not pay for those imports.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

from jobs.analise.config import ConfigAnalise, config_analise
from jobs.checagens.acervo import (
    Decisao,
    DeskError,
    achar_afirmacao,
    agora_iso,
    registrar_decisoes,
)
from jobs.checagens.configuracao import ConfigChecagens, config_checagens
from jobs.configuracao import ConfigSectionError, ler_secao

# C0/C1 controls (ANSI escapes start with ESC) and bidi overrides that can disguise text in a terminal
_INSEGURO = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def seguro(texto: str, limite: int = 0) -> str:
    """Untrusted text made safe for a terminal line (controls removed, one line, optional cut)."""
    limpo = " ".join(_INSEGURO.sub("", texto).split())
    return limpo if not limite or len(limpo) <= limite else limpo[: limite - 1] + "…"


def _configs(args: argparse.Namespace) -> tuple[Path, ConfigChecagens, ConfigAnalise]:
    raiz: Path = args.raiz
    arquivo: Path = args.config or raiz / "eleicoes.toml"
    return (
        raiz,
        config_checagens(ler_secao("checagens", arquivo)),
        config_analise(ler_secao("analise", arquivo)),
    )


def _comuns(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--raiz", type=Path, default=Path(), help="raiz do projeto (padrão: pasta atual)")
    parser.add_argument(
        "--config", type=Path, default=None, help="arquivo de configuração (padrão: eleicoes.toml)"
    )


def _executar(args: argparse.Namespace) -> int:
    try:
        status: int = args.acao(args)
    except ConfigSectionError as exc:
        print(f"erro de configuração: {exc}", file=sys.stderr)
        return 2
    except DeskError as exc:
        print(f"erro: {seguro(str(exc))}", file=sys.stderr)
        return 1
    return status


def _capturar(args: argparse.Namespace) -> int:
    from jobs.analise.afirmacoes import analisador_de
    from jobs.checagens.captura import capturar
    from jobs.checagens.memoria import SUGESTAO_OCORRENCIA, memoria_do_projeto, pontuacao_legivel

    raiz, config, analise = _configs(args)
    memoria, avisos = memoria_do_projeto(raiz, config, analise)
    resultado = capturar(
        args.url, config, raiz, candidato=args.candidato, alcance=args.alcance,
        analisador=analisador_de(analise), memoria=memoria,
    )  # fmt: skip
    c = resultado.captura
    print(f"captura {c.id} gravada em {c.pasta}")
    print(f"  plataforma: {c.plataforma}; alcance: {c.alcance if c.alcance is not None else 'desconhecido'}")
    for a in resultado.afirmacoes:
        print(f"  {a['id']} [{a['tipo']}] {seguro(a['texto'], 100)}")
        for m in a["memoria"]:
            if m["sugestao"] == SUGESTAO_OCORRENCIA:
                print(
                    f"    possível nova ocorrência da checagem {m['checagem']} "
                    f"({pontuacao_legivel(m['similaridade'])}): confirme com "
                    f"'eleicoes checagens memoria confirmar {a['id']} {m['checagem']} --editor NOME'"
                )
    for aviso in [*avisos, *resultado.avisos]:
        print(f"aviso: {seguro(aviso)}", file=sys.stderr)
    return 0


def _coletar(args: argparse.Namespace) -> int:
    from jobs.analise.afirmacoes import analisador_de
    from jobs.checagens.coletores import coletar

    raiz, config, analise = _configs(args)
    if not config.coletores:
        print("nenhum coletor configurado em [[checagens.coletores]]")
        return 0
    resultado = coletar(config, raiz, analisador_de(analise))
    print(resultado.resumo())
    for captura in resultado.capturas:
        print(f"  {captura}")
    for aviso in resultado.avisos:
        print(f"aviso: {seguro(aviso)}", file=sys.stderr)
    for erro in resultado.erros:
        print(f"erro: {seguro(erro)}", file=sys.stderr)
    return 1 if resultado.erros else 0


def _fila(args: argparse.Namespace) -> int:
    from jobs.checagens.fila import montar_fila
    from jobs.checagens.memoria import SUGESTAO_OCORRENCIA, memoria_do_projeto, pontuacao_legivel

    raiz, config, analise = _configs(args)
    memoria, avisos = memoria_do_projeto(raiz, config, analise)
    fila, avisos_fila = montar_fila(raiz, config, memoria, args.limite, args.candidato)
    if args.json:
        itens = [
            {
                "posicao": n,
                "afirmacao": i.afirmacao.id,
                "texto": i.afirmacao.texto,
                "candidato": i.afirmacao.captura.candidato,
                "url": i.afirmacao.captura.url,
                "prioridade": i.prioridade,
                "checabilidade": i.afirmacao.checabilidade,
                "alcance": i.afirmacao.captura.alcance,
                "alcance_normalizado": round(i.alcance_norm, 4),
                "dano": i.afirmacao.dano,
                "temas": list(i.afirmacao.temas),
                "repeticoes": [r.id for r in i.repeticoes],
                "memoria": [
                    {"checagem": s.checagem.id, "similaridade": s.similaridade, "sugestao": s.sugestao}
                    for s in i.memoria
                ],
            }
            for n, i in enumerate(fila, start=1)
        ]
        print(json.dumps({"fila": itens, "avisos": [*avisos, *avisos_fila]}, ensure_ascii=False, indent=1))
        return 0
    if not fila:
        print("fila vazia: nenhuma afirmação checável em aberto")
    for n, i in enumerate(fila, start=1):
        a = i.afirmacao
        alcance = a.captura.alcance if a.captura.alcance is not None else "?"
        print(
            f"{n:>3}. {i.prioridade:6.2f}  {a.id}  {a.captura.candidato or '-'}  "
            f"checab. {a.checabilidade:.2f}  alcance {alcance}  dano {a.dano:.2f}"
        )
        print(f"       {seguro(a.texto, 110)}")
        if i.repeticoes:
            print(f"       repetida em {len(i.repeticoes)} outra(s) captura(s)")
        for s in i.memoria:
            rotulo = "possível ocorrência de" if s.sugestao == SUGESTAO_OCORRENCIA else "parecida com"
            print(f"       {rotulo} {s.checagem.id} ({pontuacao_legivel(s.similaridade)})")
    for aviso in [*avisos, *avisos_fila]:
        print(f"aviso: {seguro(aviso)}", file=sys.stderr)
    return 0


def _rascunho(args: argparse.Namespace) -> int:
    from jobs.checagens.memoria import memoria_do_projeto
    from jobs.checagens.rascunho import busca_de, escrever_rascunho

    raiz, config, analise = _configs(args)
    memoria, _avisos = memoria_do_projeto(raiz, config, analise)
    caminho, rascunho = escrever_rascunho(
        raiz, config, analise, args.afirmacao, saida=args.saida, memoria=memoria,
        busca=busca_de(config), editor=args.editor,
    )  # fmt: skip
    print(f"rascunho gravado em {caminho} (status rascunho: nunca é publicado sozinho)")
    print(
        f"  {len(rascunho.fatos)} fato(s) a verificar; "
        f"{len(rascunho.relacionadas)} checagem(ns) publicada(s) relacionada(s)"
    )
    for aviso in rascunho.avisos:
        print(f"aviso: {seguro(aviso)}", file=sys.stderr)
    return 0


def _descartar(args: argparse.Namespace) -> int:
    raiz, config, _analise = _configs(args)
    dados = raiz / config.dados_dir
    afirmacao = achar_afirmacao(dados, args.afirmacao)
    if not args.editor.strip():
        raise DeskError("informe quem descarta (--editor)")
    registrar_decisoes(
        dados, [Decisao(afirmacao.id, "descartada", agora_iso(), args.editor.strip(), "", args.motivo)]
    )
    print(f"afirmação {afirmacao.id} retirada da fila")
    return 0


def _memoria_buscar(args: argparse.Namespace) -> int:
    from jobs.checagens.memoria import memoria_do_projeto, pontuacao_legivel

    raiz, config, analise = _configs(args)
    memoria, avisos = memoria_do_projeto(raiz, config, analise)
    texto, candidato = args.texto, args.candidato
    if args.afirmacao:
        a = achar_afirmacao(raiz / config.dados_dir, args.afirmacao)
        texto, candidato = a.texto, a.captura.candidato
    if not texto:
        raise DeskError("informe o texto ou --afirmacao ID")
    achadas = memoria.buscar(texto, candidato, k=args.limite)
    if not achadas:
        limiar = config.memoria.limiares(memoria.com_embeddings)[0]
        print(f"nenhuma checagem publicada parecida (limiar {limiar:g})")
    for s in achadas:
        print(
            f"{pontuacao_legivel(s.similaridade):>5}  {s.sugestao:<10} {s.checagem.id}  "
            f"[{s.checagem.veredito}] {seguro(s.checagem.afirmacao, 90)}"
        )
    for aviso in avisos:
        print(f"aviso: {seguro(aviso)}", file=sys.stderr)
    return 0


def _memoria_sugestoes(args: argparse.Namespace) -> int:
    from jobs.checagens.fila import montar_fila
    from jobs.checagens.memoria import SUGESTAO_OCORRENCIA, memoria_do_projeto, pontuacao_legivel

    raiz, config, analise = _configs(args)
    memoria, _avisos = memoria_do_projeto(raiz, config, analise)
    fila, _ = montar_fila(raiz, config, memoria, limite=10**9)
    pendentes = [(i, s) for i in fila for s in i.memoria if s.sugestao == SUGESTAO_OCORRENCIA]
    if not pendentes:
        print("nenhuma sugestão de ocorrência pendente")
    for i, s in pendentes:
        print(f"{i.afirmacao.id} -> {s.checagem.id} ({pontuacao_legivel(s.similaridade)})")
        print(f"    post:      {seguro(i.afirmacao.texto, 100)}")
        print(f"    checagem:  {seguro(s.checagem.afirmacao, 100)}")
    return 0


def _memoria_confirmar(args: argparse.Namespace) -> int:
    from jobs.checagens.memoria import confirmar_ocorrencia

    raiz, config, _analise = _configs(args)
    caminho = confirmar_ocorrencia(raiz, config, args.afirmacao, args.checagem, args.editor)
    print(f"ocorrência acrescentada a {caminho}; revise o diff e abra o pull request")
    return 0


def register(checagens_sub: Any, redes_sub: Any) -> None:
    """Add `redes capturar|coletar` and `checagens fila|rascunho|descartar|memoria`."""
    p = redes_sub.add_parser(
        "capturar",
        help="guarda um post (HTML, texto, metadados, WARC, transcrição) e faz a triagem",
        description="Baixa a página do post e guarda a prova em data/redes/<candidato>/<id>/.",
    )
    p.add_argument("url", help="endereço do post")
    p.add_argument("--candidato", default="", help="id do candidato (arquivo em content/candidatos/)")
    p.add_argument("--alcance", type=int, default=None, help="pessoas alcançadas, se a plataforma informa")
    _comuns(p)
    p.set_defaults(func=_executar, acao=_capturar)

    p = redes_sub.add_parser("coletar", help="lê os feeds públicos configurados e captura os posts novos")
    _comuns(p)
    p.set_defaults(func=_executar, acao=_coletar)

    p = checagens_sub.add_parser(
        "fila",
        help="afirmações checáveis em aberto, por checabilidade, alcance e dano",
        description="Mesma fórmula para todos os candidatos; opiniões, promessas e previsões não entram.",
    )
    p.add_argument("--candidato", default="", help="só as afirmações deste candidato")
    p.add_argument("--limite", type=int, default=50, help="quantos itens mostrar (padrão: 50)")
    p.add_argument("--json", action="store_true", help="saída em JSON")
    _comuns(p)
    p.set_defaults(func=_executar, acao=_fila)

    p = checagens_sub.add_parser(
        "rascunho",
        help="primeiro rascunho assistido de uma afirmação da fila (status rascunho)",
        description=(
            "Divide a afirmação em fatos, sugere fontes públicas e grava um rascunho "
            "que nunca é publicado sozinho."
        ),
    )
    p.add_argument("afirmacao", metavar="CLAIM_ID", help="id da afirmação (veja 'eleicoes checagens fila')")
    p.add_argument(
        "--saida",
        type=Path,
        default=None,
        help="arquivo de saída (padrão: content/checagens/rascunho-<id>.md)",
    )
    p.add_argument("--editor", default="", help="quem pediu o rascunho (fica no registro de decisões)")
    _comuns(p)
    p.set_defaults(func=_executar, acao=_rascunho)

    p = checagens_sub.add_parser(
        "descartar", help="tira uma afirmação da fila (a redação decide o que entra)"
    )
    p.add_argument("afirmacao", metavar="CLAIM_ID", help="id da afirmação a descartar")
    p.add_argument("--editor", required=True, help="quem descarta")
    p.add_argument("--motivo", default="", help="por que não será checada")
    _comuns(p)
    p.set_defaults(func=_executar, acao=_descartar)

    memoria = checagens_sub.add_parser("memoria", help="memória de checagens: afirmações repetidas")
    memoria_sub = memoria.add_subparsers(dest="acao_memoria", metavar="ACAO", required=True)
    p = memoria_sub.add_parser("buscar", help="checagens publicadas parecidas com um texto ou afirmação")
    p.add_argument("texto", nargs="?", default="", help="texto a procurar")
    p.add_argument(
        "--afirmacao", default="", metavar="CLAIM_ID", help="usar o texto de uma afirmação capturada"
    )
    p.add_argument("--candidato", default="", help="candidato de quem é o texto")
    p.add_argument("--limite", type=int, default=5, help="quantas checagens mostrar (padrão: 5)")
    _comuns(p)
    p.set_defaults(func=_executar, acao=_memoria_buscar)
    p = memoria_sub.add_parser(
        "sugestoes", help="afirmações em aberto que parecem repetir uma checagem publicada"
    )
    _comuns(p)
    p.set_defaults(func=_executar, acao=_memoria_sugestoes)
    p = memoria_sub.add_parser(
        "confirmar",
        help="confirma uma afirmação como nova ocorrência de uma checagem publicada",
        description="Acrescenta [[ocorrencias]] ao front matter da checagem; o resto do arquivo não muda.",
    )
    p.add_argument("afirmacao", metavar="CLAIM_ID", help="id da afirmação repetida")
    p.add_argument("checagem", metavar="CHECK_ID", help="id da checagem publicada")
    p.add_argument("--editor", required=True, help="quem confirma")
    _comuns(p)
    p.set_defaults(func=_executar, acao=_memoria_confirmar)
