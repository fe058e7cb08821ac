"""Projection model of the 2026 runoff: TSE files in, the seed's forecast out. Standard library only."""

VERSION = "3.1.0"  # seed, "Como auditar": "Versão atual do modelo: 3.1.0"
