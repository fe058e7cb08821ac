"""Election night: TSE polling, snapshots, replay server and audit (issue 4)."""
