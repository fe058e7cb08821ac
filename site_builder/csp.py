"""The site's Content-Security-Policy: one policy, in every page's meta tag and in the HTTP header.

No inline script runs unless its exact text is listed in `INLINE_SCRIPTS` (allowed by its SHA-256
hash); scripts load only from the site itself. Inline styles are forbidden too (a `style`
attribute injected into a page could restyle it to mislead), so templates style through the
stylesheet and SVG presentation attributes. `frame-ancestors` works only in the header (browsers
ignore it in a meta tag and say so in the console), hence two variants.
"""

from __future__ import annotations

import base64
import hashlib

INLINE_SCRIPTS: tuple[str, ...] = ()  # exact text of the inline scripts templates may contain

DIRECTIVES: tuple[tuple[str, str], ...] = (
    ("default-src", "'self'"),
    ("script-src", "'self'"),
    ("style-src", "'self'"),
    ("img-src", "'self'"),
    ("font-src", "'self'"),
    ("connect-src", "'self'"),
    ("media-src", "'self'"),
    ("object-src", "'none'"),
    ("base-uri", "'none'"),
    ("form-action", "'self'"),
)
HEADER_ONLY: tuple[tuple[str, str], ...] = (("frame-ancestors", "'none'"),)


def script_hash(text: str) -> str:
    """The CSP source allowing one inline script: `'sha256-<base64>'`."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


def policy(*, header: bool = False, scripts: tuple[str, ...] = INLINE_SCRIPTS) -> str:
    """The policy text; `header=True` adds what only the HTTP header may carry."""
    hashes = " ".join(script_hash(s) for s in scripts)
    parts = []
    for name, value in DIRECTIVES + (HEADER_ONLY if header else ()):
        extra = f" {hashes}" if name == "script-src" and hashes else ""
        parts.append(f"{name} {value}{extra}")
    return "; ".join(parts)
