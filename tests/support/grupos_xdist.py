"""Keep `--dist loadgroup` grouping on pytest 9.2, whose node ids pytest-xdist 3.8 can no longer change.

xdist's worker tells the controller an item's `xdist_group` by appending `@group` to its node id
(`item._nodeid = ...` in xdist/remote.py). pytest 9.2 keeps the id in `item._id` (a structured
`NodeId`) and ignores `_nodeid`, so every group silently fell apart: the tests of one module fixture
ran in both workers, each building the fixture (pytest-xdist issue 1386, fix not released). This
plugin, run after xdist's hook, adds the suffix where it is missing; with a pytest or xdist that
still does it, it finds the suffix there and changes nothing.
"""

from __future__ import annotations

import pytest


def sufixo_do_grupo(item: pytest.Item) -> str:
    """`@name` as xdist writes it for the item's `xdist_group` marks ("" without one)."""
    nomes = {
        str(marca.args[0] if marca.args else marca.kwargs.get("name", "default"))
        for marca in item.iter_markers("xdist_group")
    }
    return "@" + "_".join(sorted(nomes)) if nomes else ""


class GrupoNoId:
    """Registered by tests/conftest.py in each xdist worker running `--dist loadgroup`."""

    @pytest.hookimpl(trylast=True)  # after xdist's own hook, which may have written the suffix
    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        """Append the group suffix to each grouped item's node id, unless it is already there."""
        from _pytest.nodeid import coerce_node_id  # pytest >= 9.2 only (see `registrar`)

        for item in items:
            sufixo = sufixo_do_grupo(item)
            if sufixo and not item.nodeid.endswith(sufixo):
                item._id = coerce_node_id(item.nodeid + sufixo)


def registrar(config: pytest.Config) -> None:
    """Register `GrupoNoId` in an xdist worker of a loadgroup run whose pytest has structured ids."""
    import importlib.util

    worker = hasattr(config, "workerinput")  # only xdist workers have it; only they know "loadgroup"
    if worker and config.getvalue("loadgroup") and importlib.util.find_spec("_pytest.nodeid") is not None:
        config.pluginmanager.register(GrupoNoId(), "eleicoes-grupo-no-id")
