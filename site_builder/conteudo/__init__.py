"""The content model: what an editor's file means, shared by the fact-check desk's validator
(`eleicoes checagens validar`, in `jobs/checagens/`) and the site build.

- `registros`: the records of checks and candidates (dataclasses, no I/O);
- `frontmatter`: reading the TOML front matter of a content file;
- `vereditos`: the verdict scale (names, labels, ClaimReview ratings);
- `regras`: the rules a check or candidate file must satisfy, one function per rule;
- `texto_seguro`: what editor-written text may hold (link schemes read as a browser reads them, no
  raw HTML, no bidi or invisible characters, sizes);
- `editores`: the editors' registry (`content/editores.toml`) and identity by id.

It imports nothing outside `site_builder/` (jobs import it; it never imports a job), so the build
refuses exactly what the pull-request check refuses. Rules that need git history or the network
stay in `jobs/checagens/` (`historico_git`, `validar`).
"""
