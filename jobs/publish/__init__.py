"""Publishing: object storage + CDN (issue 9)."""
