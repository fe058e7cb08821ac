"""`eleicoes auditar SNAPSHOT_DIR`: rerun the model on a stored snapshot and compare with its `saida.json`.

Three checks, all on the folder alone: every `.jws` twin verifies with the TSE key and its payload is
the stored `.json`; every raw file, and every refused reading kept in `rejeitados/`, has the SHA-256
that `captura.json` recorded; and the model, rerun
exactly as `eleicoes projetar` (options from `captura.json`), gives `saida.json` byte for byte.
"""

from __future__ import annotations

import difflib
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from jobs.tse.config import TSE_KID, TSE_X
from jobs.tse.jws import ChaveTse, SignatureError, key_from_jwk, verify_jws
from jobs.tse.projection import ArgsProjecao, project_folder
from jobs.tse.store import CAPTURE_FILE, OUTPUT_FILE
from model.calibration import CalibrationError
from model.forecast import ProjectionError
from model.snapshot import SnapshotError
from site_builder.br_format import plural

MAX_DIFF_LINES = 200


@dataclass
class ResultadoAuditoria:
    """Outcome of an audit: `ok` when every check passed; `problemas` and `diff` say what did not."""

    pasta: Path
    comando: str = ""
    problemas: list[str] = field(default_factory=list)
    diff: str = ""
    assinaturas: int = 0

    @property
    def ok(self) -> bool:
        """Whether the snapshot is reproduced exactly."""
        return not self.problemas and not self.diff

    def veredito(self) -> str:
        """The one-line Portuguese outcome `eleicoes auditar` ends with: what was checked when it
        passed; when it failed, how many problems (counted in agreement) and whether the rerun of the
        model differs from the stored `saida.json`."""
        if self.ok:
            return f"ok: {self.pasta} reproduzido byte a byte ({self.assinaturas} " + (
                "assinatura do TSE conferida)" if self.assinaturas == 1 else "assinaturas do TSE conferidas)"
            )
        causas = [plural(len(self.problemas), "problema", "problemas")] if self.problemas else []
        if self.diff:
            causas.append("o saida.json refeito difere do guardado")
        return f"FALHOU: {self.pasta} não é reproduzido ({'; '.join(causas)})"


def _args(captura: dict[str, object], pasta: Path) -> ArgsProjecao:
    opcoes = captura.get("projetar")
    if isinstance(opcoes, list) and all(isinstance(o, str) for o in opcoes):
        cargo = "presidente"
        uf: str | None = None
        for i, o in enumerate(opcoes):
            if o == "--cargo" and i + 1 < len(opcoes):
                cargo = opcoes[i + 1]
            if o == "--uf" and i + 1 < len(opcoes):
                uf = opcoes[i + 1]
        agora: str | None = None
        for i, o in enumerate(opcoes):
            if o == "--agora" and i + 1 < len(opcoes):
                agora = opcoes[i + 1]
        return ArgsProjecao(cargo, uf, "--sem-correcao" in opcoes, agora)
    corrida = pasta.parent.name  # `presidente` or `governador-<uf>` (PINS.md)
    if corrida.startswith("governador-"):
        return ArgsProjecao("governador", corrida.removeprefix("governador-"), False)
    return ArgsProjecao("presidente", None, False)


def audit_snapshot(pasta: Path, chave: ChaveTse | None = None) -> ResultadoAuditoria:
    """Audit one snapshot folder; never raises for a bad snapshot (problems are reported)."""
    res = ResultadoAuditoria(pasta)
    chave = chave or key_from_jwk(TSE_KID, TSE_X)
    try:
        captura = json.loads((pasta / CAPTURE_FILE).read_bytes())
        guardada = (pasta / OUTPUT_FILE).read_bytes()
    except (OSError, ValueError) as exc:
        res.problemas.append(f"snapshot incompleto: {exc}")
        return res
    if not isinstance(captura, dict):
        res.problemas.append("captura.json não é um objeto")
        return res
    arquivos = captura.get("arquivos") if isinstance(captura.get("arquivos"), dict) else {}
    assert isinstance(arquivos, dict)
    for nome, entrada in sorted(arquivos.items()):
        p = pasta / nome
        rejeitado = entrada.get("rejeitado") if isinstance(entrada, dict) else None
        for guardado, sha in sorted(rejeitado.items()) if isinstance(rejeitado, dict) else ():
            q = pasta / guardado
            if not q.is_file() or hashlib.sha256(q.read_bytes()).hexdigest() != sha:
                res.problemas.append(f"{guardado}: leitura recusada ausente ou com SHA-256 diferente")
        if not isinstance(entrada, dict) or not p.is_file():
            continue
        dados = p.read_bytes()
        esperado = entrada.get("sha256")
        if esperado and hashlib.sha256(dados).hexdigest() != esperado:
            res.problemas.append(f"{nome}: SHA-256 diferente do registrado em captura.json")
        twin = pasta / (nome[: -len(".json")] + ".jws")
        if twin.is_file():
            try:
                conteudo = verify_jws(twin.read_bytes(), chave)
            except SignatureError as exc:
                res.problemas.append(f"{twin.name}: {exc}")
                continue
            res.assinaturas += 1
            if conteudo != dados:
                res.problemas.append(f"{nome}: difere do conteúdo assinado em {twin.name}")
    for nome, info in sorted((captura.get("cobertura") or {}).items()):
        p = pasta / nome
        registrado = info.get("sha256") if isinstance(info, dict) else None
        if registrado and p.is_file() and hashlib.sha256(p.read_bytes()).hexdigest() != registrado:
            res.problemas.append(f"{nome}: SHA-256 diferente do registrado em captura.json")
    args = _args(captura, pasta)
    res.comando = args.comando(str(pasta))
    try:
        refeita = project_folder(pasta, args)
    except (SnapshotError, CalibrationError, ProjectionError, ValueError, OSError) as exc:
        res.problemas.append(f"o modelo não rodou: {exc}")
        return res
    if refeita != guardada:
        linhas = list(
            difflib.unified_diff(
                guardada.decode("utf-8", "replace").splitlines(),
                refeita.decode("utf-8", "replace").splitlines(),
                "saida.json (guardada)",
                "saida.json (recalculada)",
                lineterm="",
            )
        )
        if len(linhas) > MAX_DIFF_LINES:
            linhas = [*linhas[:MAX_DIFF_LINES], f"... ({len(linhas) - MAX_DIFF_LINES} linhas omitidas)"]
        res.diff = "\n".join(linhas)
    return res
