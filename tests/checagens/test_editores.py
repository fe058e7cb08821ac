"""The editors' registry: one person can never pass as two (site_builder.conteudo.editores)."""

from __future__ import annotations

import pytest

from site_builder.conteudo.editores import chave, identificar, ler_registro

REGISTRO = """
[[editores]]
id = "fernanda-lima"
nome = "Fernanda Lima"
github = "fernanda-lima-demo"
apelidos = ["F. Lima"]

[[editores]]
id = "carla-menezes"
nome = "Carla Menezes"
github = "carla-menezes-demo"
"""


@pytest.mark.parametrize(
    "variante",
    [
        "Fernanda Lima",
        "fernanda lima",
        "FERNANDA  LIMA",
        "Fernanda\u00a0Lima",  # no-break space
        "Fernanda\u202fLima",  # narrow no-break space
        "Fer\u200bnanda Lima",  # zero-width space
        "Fernanda Lima\u200d",
        "Fernánda Lima",
        "Ｆｅｒｎａｎｄａ Ｌｉｍａ",  # fullwidth
        " fernanda-lima ",
        "fernanda_lima",
        "F. Lima",
        "f lima",
    ],
)
def test_every_way_of_writing_one_person_is_that_person(variante: str) -> None:
    registro, problemas = ler_registro(REGISTRO)
    assert problemas == []
    identificador, problema = identificar(registro, variante)
    assert identificador == ""  # only the id itself is accepted in a check...
    assert problema is not None and "'fernanda-lima'" in problema  # ...and the message names it
    assert chave(variante) in (chave("Fernanda Lima"), chave("F. Lima"))


def test_registered_id_is_accepted_and_unknown_person_is_named() -> None:
    registro, _ = ler_registro(REGISTRO)
    assert identificar(registro, "carla-menezes") == ("carla-menezes", None)
    assert identificar(registro, "joana-d") == (
        "",
        "'joana-d' não está no registro de editores (content/editores.toml)",
    )
    assert registro.nome("carla-menezes") == "Carla Menezes"
    editor = registro.por_github("Carla-Menezes-Demo")
    assert editor is not None and editor.id == "carla-menezes"


@pytest.mark.parametrize(
    ("extra", "mensagem"),
    [
        (
            'id = "fernanda-lima-2"\nnome = "FERNANDA LIMA"\ngithub = "outra"',
            "se confunde com id de 'fernanda-lima'",
        ),
        (
            'id = "f-lima"\nnome = "Francisco Souza"\ngithub = "fs"',
            "se confunde com apelidos[1] de 'fernanda-lima'",
        ),
        ('id = "carla"\nnome = "Cаrla Menezes"\ngithub = "cm"', "mistura alfabetos (CYRILLIC, LATIN)"),
        ('id = "rui"\nnome = "Rui\u202e Souza"\ngithub = "rs"', "caracteres invisíveis"),
        (
            'id = "joao"\nnome = "João"\ngithub = "FERNANDA-LIMA-DEMO"',
            "se confunde com github de 'fernanda-lima'",
        ),
        ('id = "Joao"\nnome = "João"\ngithub = "jj"', "use apenas letras minúsculas"),
        ('id = "joao"\nnome = "João"\ngithub = "-jj"', "conta do GitHub inválida"),
    ],
)
def test_registry_refuses_a_second_identity_for_one_person(extra: str, mensagem: str) -> None:
    _, problemas = ler_registro(REGISTRO + "\n[[editores]]\n" + extra + "\n")
    assert any(mensagem in m for _, m in problemas), problemas


def test_html_in_a_registered_name_is_refused() -> None:
    _, problemas = ler_registro(
        REGISTRO + '\n[[editores]]\nid = "x"\nnome = "<b>Xavier</b>"\ngithub = "xx"\n'
    )
    assert any("contém HTML ('<b')" in m for _, m in problemas), problemas
