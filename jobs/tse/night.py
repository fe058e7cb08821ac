"""Night folders (PINS.md): recorded or simulated captures that the replay server serves.

```
NIGHT_DIR/noite.json                                     {"ciclo", "ambiente", "descricao"}
NIGHT_DIR/<ambiente>/comum/config/ele-c.json             optional: generated when absent
NIGHT_DIR/<ambiente>/<ciclo>/<ele>/config/mun-e<ele6>-cm.json   optional: generated when absent
NIGHT_DIR/capturas/<YYYY-MM-DDTHH-MM-SSZ>/<TSE file names>      `.json`, `.jws` twins, `-ab.json`
```
The TSE's URL always serves the latest version of a file and files never disappear, so capture k
serves, for each name, the newest version recorded at or before k. The TSE also regenerates every
file at every cycle, changed or not (`dg/hg` and `idg` advance, `dt/ht` and the counts stay), so a
result file recorded at capture j < k is served regenerated for capture k (`regenerate`): same
bytes but the generation stamp, `hg` moved by the time between the two captures. A `.jws` cannot be
re-signed: a file recorded with its twin is served as recorded, both of them (docs/NOITE.md).
Config and coverage files that the night lacks are generated from what the captures hold, in the
TSE's own layout.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import shutil
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jobs.tse.store import parse_capture_name
from model.strata import ELECTIONS, UF_UTC_OFFSET
from model.tse_files import BRASILIA

META = "noite.json"
CAPTURES = "capturas"

# <uf>[<mun5>][-z<zona4>]-c<cargo4>-e<ele6>-<u|v>.<json|jws> and <uf>-e<ele6>-ab.<json|jws>.
MUNICIPALITY_NAMES = Path(__file__).with_name("municipios_nomes.json")
RESULT_NAME = re.compile(
    r"^(?P<uf>[a-z]{2})(?P<mun>\d{5})?(?:-z(?P<zona>\d{4}))?-c(?P<cargo>\d{4})-e(?P<ele>\d{6})-[uv]\.(?:json|jws)$"
)
COVERAGE_NAME = re.compile(r"^(?P<uf>[a-z]{2})-e(?P<ele>\d{6})-ab\.(?:json|jws)$")
CAPTURE_NAME = re.compile(r"^(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2})(?:-\d{3})?Z$")
CARGO_NAMES = {1: "Presidente", 3: "Governador", 5: "Senador", 11: "Prefeito"}


class NightError(ValueError):
    """A night folder that cannot be served (Portuguese message)."""


@dataclass(frozen=True)
class Captura:
    """One capture of the night: its UTC instant and its files by TSE name."""

    nome: str
    instante: dt.datetime
    arquivos: dict[str, Path]


# The generation stamp of a TSE file: the first `"dg"`, `"hg"` and `"idg"` keys are the root's (the
# result files write them before `carg`; a candidate's `dt` is a birth date, never touched here).
_STAMP = {chave: re.compile(rb'("' + chave + rb'"\s*:\s*")([^"]*)(")') for chave in (b"dg", b"hg", b"idg")}


def regenerate(raw: bytes, depois_s: float) -> bytes:
    """`raw` as the TSE regenerates it `depois_s` seconds later with nothing new: `dg/hg` moved by
    that much (Brasília), `idg` grown by as many units (at least 1); the counts, `dt/ht` and every
    other byte unchanged. A body without a readable `dg/hg` is returned as it is."""
    dg, hg = _STAMP[b"dg"].search(raw), _STAMP[b"hg"].search(raw)
    if dg is None or hg is None:
        return raw
    try:
        antes = dt.datetime.strptime(f"{dg[2].decode()} {hg[2].decode()}", "%d/%m/%Y %H:%M:%S")
    except (UnicodeDecodeError, ValueError):
        return raw
    novo = antes + dt.timedelta(seconds=round(depois_s))
    out = _STAMP[b"dg"].sub(lambda m: m[1] + novo.strftime("%d/%m/%Y").encode() + m[3], raw, count=1)
    out = _STAMP[b"hg"].sub(lambda m: m[1] + novo.strftime("%H:%M:%S").encode() + m[3], out, count=1)
    idg = _STAMP[b"idg"].search(out)
    if idg is not None and idg[2].isdigit():
        passo = max(1, round(depois_s))
        out = _STAMP[b"idg"].sub(lambda m: m[1] + str(int(m[2]) + passo).encode() + m[3], out, count=1)
    return out


def capture_instant(nome: str) -> dt.datetime | None:
    """UTC instant of a capture folder name (`…Z`, optionally with milliseconds)."""
    m = CAPTURE_NAME.match(nome)
    return parse_capture_name(m.group(1) + "Z") if m else None


def _tse_time(t: dt.datetime) -> tuple[str, str]:
    b = t.astimezone(BRASILIA)
    return b.strftime("%d/%m/%Y"), b.strftime("%H:%M:%S")


@dataclass
class Noite:
    """A night folder, indexed: versions of every file across captures, config files, coverage."""

    raiz: Path
    ciclo: str
    ambiente: str
    descricao: str
    capturas: list[Captura]
    versoes: dict[str, list[int]] = field(default_factory=dict)
    _cobertura: dict[tuple[int, str, str], bytes | None] = field(default_factory=dict)
    _por_uf: dict[tuple[str, str], dict[str, tuple[int, str]]] | None = None
    _trava: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)
    _ele_c: bytes | None = None
    _cm: dict[str, bytes | None] = field(default_factory=dict)

    @classmethod
    def abrir(cls, raiz: Path) -> Noite:
        """Read and index a night folder; NightError when it has no capture."""
        meta: dict[str, Any] = {}
        if (raiz / META).is_file():
            try:
                meta = json.loads((raiz / META).read_bytes())
            except ValueError as exc:
                raise NightError(f"{raiz / META}: JSON inválido ({exc})") from exc
        pasta = raiz / CAPTURES
        if not pasta.is_dir():
            raise NightError(f"{raiz}: falta a pasta {CAPTURES}/")
        capturas: list[Captura] = []
        for p in sorted(pasta.iterdir()):
            instante = capture_instant(p.name) if p.is_dir() else None
            if instante is None:
                continue
            arquivos = {
                f.name: f
                for f in sorted(p.iterdir())
                if f.is_file() and (RESULT_NAME.match(f.name) or COVERAGE_NAME.match(f.name))
            }
            capturas.append(Captura(p.name, instante, arquivos))
        if not capturas:
            raise NightError(f"{pasta}: nenhuma captura (pastas AAAA-MM-DDTHH-MM-SSZ)")
        noite = cls(
            raiz=raiz,
            ciclo=str(meta.get("ciclo", "ele2026")),
            ambiente=str(meta.get("ambiente", "oficial")),
            descricao=str(meta.get("descricao", "")),
            capturas=capturas,
        )
        for k, cap in enumerate(capturas):
            for nome in cap.arquivos:
                noite.versoes.setdefault(nome, []).append(k)
        return noite

    def versao(self, k: int, nome: str) -> tuple[Path, int] | None:
        """The newest recorded version of `nome` at or before capture k, and the capture it is from."""
        ks = [j for j in self.versoes.get(nome, ()) if j <= k]
        if not ks:
            return None
        j = ks[-1]
        return self.capturas[j].arquivos[nome], j

    def corpo(self, k: int, nome: str) -> tuple[bytes, dt.datetime] | None:
        """The bytes the TSE serves for `nome` at capture k and when they were generated (the
        `Last-Modified`): the version recorded at k, or the last one before k regenerated for k
        (`regenerate`). `.jws` twins, and a `.json` recorded with its twin, are served as recorded:
        a regenerated body could not carry the TSE's signature."""
        versao = self.versao(k, nome)
        if versao is None:
            return None
        path, j = versao
        dados = path.read_bytes()
        if j == k or not nome.endswith(".json") or not RESULT_NAME.match(nome):
            return dados, self.capturas[j].instante
        if (path.parent / (nome[: -len(".json")] + ".jws")).is_file():
            return dados, self.capturas[j].instante
        depois = (self.capturas[k].instante - self.capturas[j].instante).total_seconds()
        return regenerate(dados, depois), self.capturas[k].instante

    def eleicoes(self) -> dict[str, set[int]]:
        """{election code: cargo codes} of the result files of the whole night."""
        out: dict[str, set[int]] = {}
        for nome in self.versoes:
            m = RESULT_NAME.match(nome)
            if m:
                out.setdefault(str(int(m["ele"])), set()).add(int(m["cargo"]))
        return out

    # ------------------------------------------------------------------------ config files

    def ele_c(self) -> bytes:
        """`comum/config/ele-c.json`: the night's own, or one generated from the captures."""
        if self._ele_c is None:
            propria = self.raiz / self.ambiente / "comum" / "config" / "ele-c.json"
            self._ele_c = propria.read_bytes() if propria.is_file() else self._generate_ele_c()
        return self._ele_c

    def cm(self, eleicao: str) -> bytes | None:
        """`mun-e<ele6>-cm.json` of an election: the night's own or generated; None if unknown."""
        if eleicao not in self._cm:
            nome = f"mun-e{int(eleicao):06d}-cm.json"
            propria = self.raiz / self.ambiente / self.ciclo / eleicao / "config" / nome
            if propria.is_file():
                self._cm[eleicao] = propria.read_bytes()
            else:
                self._cm[eleicao] = self._generate_cm(eleicao) if eleicao in self.eleicoes() else None
        return self._cm[eleicao]

    def _turno(self, eleicao: str) -> str:
        known = ELECTIONS.get(eleicao)
        if known is not None:
            return str(known.turno)
        for nome in sorted(self.versoes):
            m = RESULT_NAME.match(nome)
            if m and str(int(m["ele"])) == eleicao and nome.endswith(".json"):
                path, _ = self.versao(len(self.capturas) - 1, nome) or (None, 0)
                try:
                    return str(json.loads(path.read_bytes()).get("t", "1")) if path else "1"
                except (OSError, ValueError):
                    return "1"
        return "1"

    def _generate_ele_c(self) -> bytes:
        dg, hg = _tse_time(self.capturas[0].instante - dt.timedelta(days=1))
        eleicoes = []
        for ele, cargos in sorted(self.eleicoes().items(), key=lambda kv: int(kv[0])):
            turno = self._turno(ele)
            eleicoes.append(
                {
                    "cd": ele,
                    "cdt2": "",
                    "nm": f"Eleição {ele} - {turno}&#186; Turno (reprodução)",
                    "t": turno,
                    "tp": "2",
                    "abr": [
                        {
                            "cd": "br",
                            "cp": [
                                {"cd": str(c), "ds": CARGO_NAMES.get(c, f"Cargo {c}"), "tp": "1"}
                                for c in sorted(cargos)
                            ],
                        }
                    ],
                }
            )
        root = {
            "dg": dg,
            "hg": hg,
            "f": "o",
            "idg": "1",
            "arq": [
                {"tp": "cm", "dir": "<base>/<ambiente>/<ciclo>/<cd_eleicao>/config"},
                {"tp": "e|ab|u", "dir": "<base>/<ambiente>/<ciclo>/<cd_eleicao>/dados/<uf>"},
            ],
            "pl": [{"cd": "0", "c": self.ciclo, "dt": dg, "e": eleicoes}],
        }
        return json.dumps(root, ensure_ascii=False, indent=1).encode("utf-8")

    def _generate_cm(self, eleicao: str) -> bytes:
        """Every UF, municipality and zone the captures name for this election (files or coverage)."""
        grupos: dict[str, dict[str, set[str]]] = {}
        for nome in self.versoes:
            m = RESULT_NAME.match(nome)
            if m and str(int(m["ele"])) == eleicao and m["uf"] != "br":
                muns = grupos.setdefault(m["uf"], {})
                if m["mun"]:
                    zonas = muns.setdefault(m["mun"], set())
                    if m["zona"]:
                        zonas.add(m["zona"])
        dg, hg = _tse_time(self.capturas[0].instante - dt.timedelta(days=1))
        # Real names of the runoff states' municipalities (TSE mun-e000544-cm.json of 2022, codes
        # are stable across years), so a generated night reads like a real one.
        nomes: dict[str, dict[str, str]] = json.loads(MUNICIPALITY_NAMES.read_bytes())
        abr = [
            {
                "cd": uf,
                "ds": uf.upper(),
                "mu": [
                    {
                        "cd": cd,
                        "cdi": "",
                        "nm": nomes.get(uf, {}).get(cd, f"MUNICÍPIO {cd}"),
                        "c": "n",
                        "z": sorted(zonas) or ["0001"],
                    }
                    for cd, zonas in sorted(muns.items())
                ],
            }
            for uf, muns in sorted(grupos.items())
        ]
        root = {"dg": dg, "hg": hg, "idg": "1", "f": "o", "abr": abr}
        return json.dumps(root, ensure_ascii=False, indent=1).encode("utf-8")

    # ------------------------------------------------------------------------ coverage files

    def cobertura(self, k: int, uf: str, eleicao: str) -> bytes | None:
        """`<uf>-e<ele6>-ab.json` at capture k: recorded, or generated from the municipal files."""
        nome = f"{uf}-e{int(eleicao):06d}-ab.json"
        gravada = self.versao(k, nome)
        if gravada is not None:
            return gravada[0].read_bytes()
        chave = (k, uf, eleicao)
        with self._trava:  # the replay server's handler threads share this cache
            if chave not in self._cobertura:
                # Only the captures around the current one are kept: a whole night of 27 UFs'
                # files (the SP one alone is hundreds of KB) would otherwise stay in memory.
                for velha in [c for c in self._cobertura if c[0] < k - 1 or c[0] > k + 1]:
                    del self._cobertura[velha]
                self._cobertura[chave] = self._generate_coverage(k, uf, eleicao)
            return self._cobertura[chave]

    def warm_coverage(self, k: int) -> None:
        """Generate every coverage file of capture k ahead of the first request (the replay's timer
        calls it when it steps, so a poller's cycle does not wait for the generation)."""
        self._municipal_files("", "")
        for uf, ele6 in sorted(self._por_uf or {}):
            self.cobertura(k, uf, str(int(ele6)))

    def _municipal_files(self, uf: str, ele6: str) -> dict[str, tuple[int, str]]:
        """{municipality code: (cargo, `.json` name)} of one UF and election, the lowest cargo (the
        president's file when there is one: coverage files are per election); indexed once."""
        if self._por_uf is None:
            self._por_uf = {}
            for nome in self.versoes:
                m = RESULT_NAME.match(nome)
                if not (m and m["mun"] and not m["zona"] and nome.endswith(".json")):
                    continue
                grupo = self._por_uf.setdefault((m["uf"], m["ele"]), {})
                cargo = int(m["cargo"])
                if m["mun"] not in grupo or cargo < grupo[m["mun"]][0]:
                    grupo[m["mun"]] = (cargo, nome)
        return self._por_uf.get((uf, ele6), {})

    def _generate_coverage(self, k: int, uf: str, eleicao: str) -> bytes | None:
        """The TSE's EA15 for capture k: one row per municipality from its file served at k (finished
        ones keep their `dt/ht`), regenerated with the capture's `dg/hg` and a new `idg`."""
        ele6 = f"{int(eleicao):06d}"
        por_mun = self._municipal_files(uf, ele6)
        if not por_mun:
            return None
        linhas: list[dict[str, Any]] = []
        tot = {"ts": 0, "st": 0, "te": 0, "est": 0}
        turno = "1"
        for mun, (_, nome) in sorted(por_mun.items()):
            achado = self.versao(k, nome)
            if achado is None:
                continue
            try:
                d = json.loads(achado[0].read_bytes())
                s, e = d.get("s", {}), d.get("e", {})
                ts, st, te, est = int(s["ts"]), int(s["st"]), int(e["te"]), int(e["est"])
            except (OSError, ValueError, KeyError, TypeError, AttributeError):
                continue
            turno = str(d.get("t", turno))
            for chave, valor in (("ts", ts), ("st", st), ("te", te), ("est", est)):
                tot[chave] += valor
            linhas.append(
                {
                    "and": "f" if st >= ts else ("p" if st else "n"),
                    "tpabr": "mu",
                    "cdabr": mun,
                    "dt": d.get("dt", ""),
                    "ht": d.get("ht", ""),
                    "s": {"ts": str(ts), "st": str(st), "snt": str(ts - st)},
                    "e": {"te": str(te), "est": str(est), "esnt": str(te - est)},
                }
            )
        instante = self.capturas[k].instante
        dg, hg = _tse_time(instante)
        local = instante + dt.timedelta(hours=UF_UTC_OFFSET.get(uf, -3))
        completos = sum(1 for row in linhas if row["and"] == "f")
        parciais = sum(1 for row in linhas if row["and"] == "p")
        linha_uf = {
            "and": "f" if completos == len(linhas) else "p",
            "tpabr": "uf",
            "cdabr": uf,
            "dt": local.strftime("%d/%m/%Y"),
            "ht": local.strftime("%H:%M:%S"),
            "munnr": str(len(linhas) - completos - parciais),
            "munpt": str(parciais),
            "munf": str(completos),
            "s": {"ts": str(tot["ts"]), "st": str(tot["st"])},
            "e": {"te": str(tot["te"]), "est": str(tot["est"])},
        }
        root = {
            "ele": eleicao,
            "t": turno,
            "f": "o",
            "dg": dg,
            "hg": hg,
            "idg": str(k + 1),
            "abr": [linha_uf, *linhas],
        }
        return json.dumps(root, ensure_ascii=False).encode("utf-8")


def write_meta(raiz: Path, descricao: str, ciclo: str = "ele2026", ambiente: str = "oficial") -> None:
    """Write `noite.json`."""
    raiz.mkdir(parents=True, exist_ok=True)
    meta = {"ciclo": ciclo, "ambiente": ambiente, "descricao": descricao}
    (raiz / META).write_text(json.dumps(meta, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def write_capture(raiz: Path, instante: dt.datetime, arquivos: dict[str, bytes]) -> Path:
    """Write one capture folder of a night (files under their TSE names)."""
    pasta = raiz / CAPTURES / instante.astimezone(dt.UTC).strftime("%Y-%m-%dT%H-%M-%SZ")
    pasta.mkdir(parents=True, exist_ok=True)
    for nome, dados in arquivos.items():
        (pasta / nome).write_bytes(dados)
    return pasta


def datasets_dir() -> Path:
    """`../shared/datasets` next to the repository (real TSE files; not shipped with the package)."""
    return Path(__file__).resolve().parents[3] / "shared" / "datasets"


def _final_capture_instant(pasta: Path) -> dt.datetime:
    """One minute after the latest `dg/hg` of the files in `pasta` (Brasília → UTC)."""
    latest: dt.datetime | None = None
    for p in pasta.glob("*-u.json"):
        try:
            d = json.loads(p.read_bytes())
            t = dt.datetime.strptime(f"{d['dg']} {d['hg']}", "%d/%m/%Y %H:%M:%S").replace(tzinfo=BRASILIA)
        except (OSError, ValueError, KeyError):
            continue
        latest = t if latest is None or t > latest else latest
    if latest is None:
        raise NightError(f"{pasta}: nenhum arquivo -u.json com dg/hg")
    return latest.astimezone(dt.UTC).replace(second=0) + dt.timedelta(minutes=1)


def make_partial_night(destino: Path, origem: Path | None = None, com_final: bool = True) -> Path:
    """A night folder from the real 1st-round captures in `datasets/tse/2026-1t-parcial/`
    (six captures of election 6257, 04/10/2026 21:36 to 05/10 00:01 UTC, some of them without the
    file of some UFs: the replay serves those regenerated from their last recorded version), plus,
    with `com_final`, the signed final UF files of `datasets/tse/2026-1t-final/presidente-uf/` as
    a last capture.

    These are 1st-round files (6257): poll them with a race `cargo = "presidente", eleicao = "6257"`.
    """
    base = origem or datasets_dir() / "tse"
    parcial = base / "2026-1t-parcial"
    if not parcial.is_dir():
        raise NightError(f"pasta de capturas reais não encontrada: {parcial}")
    write_meta(
        destino,
        "Apuração real do 1º turno de 2026 (eleição 6257), seis capturas de 04/10/2026 "
        "(madebysandro/apuracao-2026, licença MIT) e, por último, os arquivos finais assinados.",
    )
    for pasta in sorted(parcial.iterdir()):
        instante = capture_instant(pasta.name) if pasta.is_dir() else None
        if instante is None:
            continue
        alvo = destino / CAPTURES / pasta.name
        alvo.mkdir(parents=True, exist_ok=True)
        for f in pasta.iterdir():
            if RESULT_NAME.match(f.name) or COVERAGE_NAME.match(f.name):
                shutil.copyfile(f, alvo / f.name)
    final = base / "2026-1t-final" / "presidente-uf"
    if com_final and final.is_dir():
        alvo = destino / CAPTURES / _final_capture_instant(final).strftime("%Y-%m-%dT%H-%M-%SZ")
        alvo.mkdir(parents=True, exist_ok=True)
        for f in final.iterdir():
            if RESULT_NAME.match(f.name):
                shutil.copyfile(f, alvo / f.name)
    return destino
