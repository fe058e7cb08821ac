"""Test support shared by several test packages: real servers on loopback."""
