"""Publishing: the built site to object storage (S3-compatible) or a local folder, plus the CDN.

`publicar(config, public_dir) -> PublishReport` is the entry point; `load_publish_config(root)`
reads `[publicar]` of eleicoes.toml. See docs/OPERACAO.md.
"""

from jobs.publish.config import PublishConfig, load_publish_config
from jobs.publish.publisher import PublishError, PublishReport, publicar
from jobs.publish.targets import open_target

__all__ = ["PublishConfig", "PublishError", "PublishReport", "load_publish_config", "open_target", "publicar"]
