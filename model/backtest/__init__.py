"""Backtest and calibration of the projection: simulated election nights, replays, fitted tables.

Standard library only, like the rest of `model/` (tqdm draws the progress bar only when it is
installed and stderr is a terminal; it is imported lazily, outside the model's import path).

* `dados`          final 2022 results by municipality (and DF zone) + 1st-round baselines (datasets/)
* `chegada`        the arrival-order model and the fit of its parameters (`chegada_2022.json`)
* `simulador`      one night per seed: batches, exact vote splits, captures, cumulative series
* `arredondamento` exact integer splits (largest remainder, controlled rounding)
* `arquivos`       TSE-format files (`-u.json`, `-ab.json`, configs)
* `noite`          a night folder for the replay server (`eleicoes simular-noite`)
* `replay`         the model run at every capture (in memory, or `project` on snapshot folders)
* `executar`       all replays of the simulated nights, seed by seed, optionally in processes
* `metricas`       errors, coverage and trend statistics by 5-point bin of % counted
* `calibrar`       drift curve, band tables and expected errors fitted from the replays
* `pipeline`       the whole backtest: replays, fit, scores
* `relatorio`      docs/BACKTEST.md; `graficos` its SVG charts
* `bweb`           optional per-section arrival files (TSE "BU na Web")
* `cli`            `eleicoes backtest` and `eleicoes simular-noite`
"""
