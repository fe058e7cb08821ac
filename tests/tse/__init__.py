"""Tests of the election-night job (issue 4): polling, snapshots, replay server, audit."""
