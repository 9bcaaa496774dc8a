"""The header's navigation stays short however many pages a series lists in it (content/plan.py NAV_MAX): a long
group lists its first pages, the page being read, and a link to the list of every page on the series' home."""

from __future__ import annotations

import re

from site_builder.cli import main
from site_builder.content.plan import NAV_MAX, SERIES_PAGES
from tests.build.test_bad_inputs import Sandbox, box  # noqa: F401  (the fixture)

COPIES = 12


def header_links(html: str) -> list[tuple[str, str, bool]]:
    nav = html[html.index('<nav aria-label="Site">') : html.index("</nav>")]
    group = nav[nav.index("Compute in Transit") : nav.index("Fourier Optics for Training")]
    found = re.findall(r'<a href="([^"]*)"( aria-current="page")?[^>]*>([^<]*)</a>', group)
    return [(re.sub(r"^(\.\./)+", "", h), t, bool(c)) for h, c, t in found]  # each href from the site root


def test_a_long_series_group_is_capped_and_its_home_lists_every_page(box: Sandbox) -> None:  # noqa: F811
    optics = (box.project / "content" / "cit" / "optics.md").read_text("utf-8")
    for k in range(COPIES):
        text = optics.replace("nav: Optics investigation", f"nav: Optics copy {chr(65 + k)}")
        box.write(f"content/cit/optics-copy-{k}.md", text.encode())
    assert main(box.args()) == 0  # the link check passes: every link, #series-pages among them, resolves
    home = (box.out / "cit" / "index.html").read_text("utf-8")
    links = header_links(home)
    assert len(links) == NAV_MAX and links[-1] == (f"cit/#{SERIES_PAGES}", f"Every page ({7 + COPIES})", False)
    assert ("cit/", "Results home", True) in links
    listed = re.findall(r"<li><a href=\"\.\./([^\"]*)\">([^<]*)</a></li>", home[home.index(f'id="{SERIES_PAGES}"') :])
    assert len(listed) == 7 + COPIES and ("cit/optics-copy-11/", "Optics copy L") in listed
    # a page not among the first NAV_MAX - 1 is shown, as the current page, on its own header
    hidden = [(url, title) for url, title in listed if url not in {h for h, _, _ in links}]
    assert len(hidden) == 7 + COPIES - (NAV_MAX - 1)
    url, title = hidden[-1]
    own = header_links((box.out / url / "index.html").read_text("utf-8"))
    assert (url, title, True) in own and len(own) == NAV_MAX + 1
    # the other series' group and every other page are as short as before
    other = (box.out / links[1][0] / "index.html").read_text("utf-8")
    assert f'id="{SERIES_PAGES}"' not in other and len(header_links(other)) == NAV_MAX
