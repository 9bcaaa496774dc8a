"""Where everything is: the command-line options resolved to one named set of paths."""

from __future__ import annotations

from pathlib import Path

from site_builder.datatypes import dataclass

PROJECT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Paths:
    """The folders one build reads and writes, resolved."""

    project: Path
    out: Path
    vendor: Path
    reference: Path
    cache: Path | None  # None: compute every model, read and write no cache

    @property
    def content(self) -> Path:
        return self.project / "content"

    @property
    def templates(self) -> Path:
        return self.project / "templates"

    @property
    def data(self) -> Path:
        return self.project / "data"

    @property
    def pins(self) -> Path:
        return self.project / "data" / "sources.yaml"

    def protected(self) -> list[tuple[Path, str]]:
        """The folders ``--out`` must neither be, be inside, nor hold: the inputs, and the results cache."""
        folders = [
            (self.content, "content folder"),
            (self.templates, "templates folder"),
            (self.data, "data folder"),
            (self.vendor, "vendor folder"),
            (self.reference, "reference folder"),
            (self.project / "site_builder", "site_builder package"),
        ]
        if self.cache is not None:
            folders.append((self.cache, "results cache"))
        return folders

    def label(self, path: Path) -> str:
        """A path as named in messages: relative to the project when inside it."""
        try:
            return path.relative_to(self.project).as_posix()
        except ValueError:
            return str(path)


@dataclass
class Options:
    """What the command line may set; everything else has a default beside the project."""

    project: Path = PROJECT
    out: Path | None = None
    vendor: Path | None = None
    reference: Path | None = None
    cache: Path | None = None
    use_cache: bool = True
    template_seconds: float = 10.0  # wall-clock limit for rendering one page's template
    site_url: str | None = None  # the published site's address, for sitemap.xml (None: paths from the site root)
    # False only for builds that are not about the decks' PDFs (tests, `figures`, `explain`): none is printed, and
    # the link check reports the links to them as not checked. The command-line build always prints.
    print_decks: bool = True

    def paths(self) -> Paths:
        project = self.project.resolve()
        return Paths(
            project=project,
            out=(self.out if self.out is not None else project / "site").resolve(),
            vendor=(self.vendor if self.vendor is not None else project.parent / "shared" / "vendor").resolve(),
            reference=(
                self.reference if self.reference is not None else project.parent / "shared" / "reference"
            ).resolve(),
            cache=(
                (self.cache if self.cache is not None else project / ".cache").resolve() if self.use_cache else None
            ),
        )
