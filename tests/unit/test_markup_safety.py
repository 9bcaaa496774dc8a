"""No raw HTML, only safe URLs, a link check that reads the parsed HTML, and templates that cannot run away."""

from __future__ import annotations

import gc
import time
from pathlib import Path

import pytest

from site_builder.errors import BuildError
from site_builder.markdown.parser import make_markdown, safe_url
from site_builder.render.links import check_site, extract
from site_builder.render.templates import make_env, render_template


@pytest.mark.parametrize(
    "url",
    ["javascript:alert(1)", "JavaScript:alert(1)", " javascript:x", "data:text/html,<b>", "data:image/png;base64,AA",
     "vbscript:msgbox", "file:///etc/passwd", "jar:http://x", "blob:http://x/1"],
)  # fmt: skip
def test_validate_link_rejects_unsafe_schemes(url: str) -> None:
    md = make_markdown()
    assert md.validateLink(url) is False
    assert not safe_url(url)


@pytest.mark.parametrize(
    "url",
    ["https://example.com/", "http://example.com/a?b#c", "mailto:a@example.com", "../x/", "/cit/", "#top", "a.png"],
)
def test_validate_link_keeps_safe_urls(url: str) -> None:
    assert make_markdown().validateLink(url) is True


def test_markdown_renders_no_raw_html_and_no_unsafe_link() -> None:
    md = make_markdown()
    html = md.render(
        "<script>alert(1)</script>\n\nA <img src=x onerror=alert(1)> [a](javascript:alert(1)) "
        "<javascript:alert(2)> [b](&#106;avascript:alert(3)) ![c](data:image/png;base64,AA) [d](/cit/#x)\n",
        {"root": "../"},
    )
    assert "<script" not in html and "<img src=x" not in html
    assert "javascript:" not in html.split("[a](")[0]
    assert 'href="javascript' not in html and 'src="data:' not in html
    assert '<a href="../cit/#x">d</a>' in html
    assert set(md.rejected_links) == {  # type: ignore[attr-defined]
        "javascript:alert(1)",
        "javascript:alert(2)",
        "javascript:alert(3)",
        "data:image/png;base64,AA",
    }


def test_value_rule_sets_a_value_apart() -> None:
    html = make_markdown().renderInline("**A** label :value[2.5 *s*]", {"root": ""})
    assert html == '<strong>A</strong> label <span class="value">2.5 <em>s</em></span>'


# ------------------------------------------------------------------------------------------ link check


def test_extract_reads_every_url_quoted_or_not() -> None:
    got = extract(
        "<img src='a.png' srcset=\"b.png 1x, c.png 2x\"><a href=d/>x</a><video poster=e.jpg></video>"
        "<form action=f></form><div style=\"background: url('g.png')\"></div><style>p{background:url(h.png)}</style>"
        '<p id=one></p><a name="two"></a><script type="application/json" id=data>{"a": "</p>"}</script>'
    )
    assert [r[2] for r in got["refs"]] == ["a.png", "b.png", "c.png", "d/", "e.jpg", "f", "g.png", "h.png"]
    assert got["ids"] == ["one", "two", "data"]
    assert got["problems"] == []


def site(tmp_path: Path, body: str, css: str = "") -> Path:
    out = tmp_path / "site"
    (out / "assets").mkdir(parents=True)
    (out / "assets" / "site.css").write_text(css)
    (out / "a").mkdir()
    (out / "a" / "index.html").write_text('<h2 id="here">A</h2>')
    (out / "index.html").write_text(f'<link rel="stylesheet" href="assets/site.css"><p id="top"></p>{body}')
    return out


@pytest.mark.parametrize(
    ("body", "css", "message"),
    [
        ("<img src='https://example.com/x.png'>", "", "src='https://example.com/x.png': expected a local resource"),
        ('<img srcset="a/ 1x, //cdn.example.com/y.png 2x">', "", "srcset='//cdn.example.com/y.png': expected a local"),
        ("<a href=nowhere/>x</a>", "", "link 'nowhere/': expected a page or file of the site, found none"),
        ("<a href=a/#nope>x</a>", "", "link 'a/#nope': expected an element with id 'nope', found none"),
        ("<a href='../outside.html'>x</a>", "", "link '../outside.html': expected a page or file of the site"),
        ("<a href=JavaScript:alert(1)>x</a>", "", "found the scheme 'javascript'"),
        ("<script>alert(1)</script>", "", "<script>: expected a script from a file"),
        ("<p onmouseover=go()>x</p>", "", "expected no inline event handler (the CSP forbids it), found onmouseover=…"),
        ("<div style='background:url(http://e.example/x.png)'></div>", "", "expected a local resource"),
        ('<meta http-equiv="refresh" content="0; url=https://e.example/">', "", "expected a local resource"),
        ("<base href=/>", "", "<base>: expected none"),
        ("", "@import 'https://fonts.example.com/a.css';", "assets/site.css: url()='https://fonts.example.com/a.css'"),
        ("", "p { background: url(missing.png) }", "assets/site.css: link 'missing.png': expected a page or file"),
    ],
)
def test_check_links_refuses(tmp_path: Path, body: str, css: str, message: str) -> None:
    with pytest.raises(BuildError) as info:
        check_site(site(tmp_path, body, css), {"": "content/index.md"})
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_check_links_passes_a_good_site_and_reuses_what_it_parsed(tmp_path: Path) -> None:
    body = (
        "<a href=a/#here>a</a> <a href='a/'>a</a> <a href=\"#top\">top</a> <a href=https://example.com/>x</a> "
        '<a href="mailto:x@example.com">m</a> <script type="application/json" id="d">{}</script>'
    )
    out = site(tmp_path, body, "p { background: url(data:image/png;base64,AA) }")
    cache = tmp_path / "cache"
    assert check_site(out, {}, cache=cache)[0] == 4
    names = ["linkcheck-a", "linkcheck-home", "linkids-a", "linkids-home", "links-a", "links-home"]
    assert sorted(p.name.split(".")[0] for p in cache.iterdir()) == names
    assert check_site(out, {}, cache=cache)[0] == 4  # from the cache
    for extraction in cache.glob("links-*"):
        extraction.unlink()
    assert check_site(out, {}, cache=cache)[0] == 4  # the verdicts and the ids' digests: no page parsed again
    assert not list(cache.glob("links-*"))
    (out / "index.html").write_text((out / "index.html").read_text() + "<a href=gone/>x</a>")
    with pytest.raises(BuildError, match="link 'gone/'"):
        check_site(out, {}, cache=cache)  # a changed page is parsed again


def test_a_page_whose_links_passed_is_checked_again_when_a_target_changes(tmp_path: Path) -> None:
    out = site(tmp_path, "<a href=a/#here>a</a>", "")
    cache = tmp_path / "cache"
    assert check_site(out, {}, cache=cache)[0] == 2  # the style sheet and the anchor
    assert check_site(out, {}, cache=cache)[0] == 2  # the verdicts from the cache
    page = out / "a" / "index.html"
    page.write_text(page.read_text().replace('id="here"', 'id="moved"'))  # the home page itself is unchanged
    with pytest.raises(BuildError, match="expected an element with id 'here'"):
        check_site(out, {}, cache=cache)
    page.unlink()
    page.parent.rmdir()
    with pytest.raises(BuildError, match="expected a page or file of the site"):
        check_site(out, {}, cache=cache)


# ------------------------------------------------------------------------------------------ templates


def templates(tmp_path: Path, text: str, seconds: float = 0.3):  # type: ignore[no-untyped-def]
    (tmp_path / "t.html").write_text(text)
    return make_env(tmp_path, seconds)


def test_an_endless_template_stops_at_its_time_limit(tmp_path: Path) -> None:
    loop = "{% for i in range(100000) %}{% for j in range(100000) %}{{ j }}{% endfor %}{% endfor %}"
    # Without the garbage-collector callbacks hypothesis installs in this process: an alarm raised in one is lost
    # (the test below holds the render to that case), and pytest then reports it from a hook the next alarm can
    # land in. A build has no such callback.
    callbacks = gc.callbacks[:]
    gc.callbacks.clear()
    t0 = time.monotonic()
    try:
        with pytest.raises(BuildError) as info:
            render_template(templates(tmp_path, loop), "t.html", {})
    finally:
        gc.callbacks.extend(callbacks)
    assert time.monotonic() - t0 < 5
    assert str(info.value) == (
        "templates/t.html: render: expected a template that finishes within 0.3 s, found one still running"
    )


class SwallowsOneTimeout:
    """An iterator that loses the first time-out raised in it, as a garbage-collector callback does, then yields
    without calling anything (a loop over it is out of reach of the sandbox's deadline check); it ends by itself
    after 3 s, so a render that does not stop ends rather than hangs."""

    def __init__(self) -> None:
        self.swallowed = 0
        self.end = time.monotonic() + 3

    def __iter__(self) -> SwallowsOneTimeout:
        return self

    def __next__(self) -> int:
        from site_builder.render.templates import TemplateTimeout

        if time.monotonic() > self.end:
            raise StopIteration
        if not self.swallowed:
            try:
                while time.monotonic() < self.end:
                    pass
            except TemplateTimeout:
                self.swallowed += 1
        return 1


def test_a_lost_time_out_is_raised_again(tmp_path: Path) -> None:
    it = SwallowsOneTimeout()
    with pytest.raises(BuildError, match=r"expected a template that finishes within 0\.3 s"):
        render_template(templates(tmp_path, "{% for i in it %}{% endfor %}"), "t.html", {"it": it})
    assert it.swallowed == 1
    assert time.monotonic() < it.end


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}", "templates/t.html: line 1: expected a template that ends"),
        ("a\n{{ 1 // x }}", "templates/t.html: line 2: expected a template that renders, found ZeroDivisionError"),
        ("{{ x.__class__.__mro__ }}", "templates/t.html: line 1: expected what Jinja's sandbox allows"),
        ("{{ [1] * 20000000 }}", "templates/t.html: line 1: expected what Jinja's sandbox allows, found a sequence"),
        ("{{ 2 ** 100000 }}", "expected what Jinja's sandbox allows, found an exponent above 1000"),
        ("{{ nothing }}", "templates/t.html: line 1: expected defined names, found 'nothing' is undefined"),
        ("{% include '../secret.html' %}", "templates/../secret.html: file: expected a template, found no such file"),
        ("{% if %}", "templates/t.html: line 1: expected valid Jinja"),
    ],
)
def test_template_failures_are_one_line(tmp_path: Path, text: str, message: str) -> None:
    # none of these is about the time limit (the tests above are): a generous one, so that the endless recursion
    # reaches Python's recursion limit first on a loaded machine (in CI, with both cores busy, it once took longer
    # than 0.3 s, and the time limit answered instead)
    with pytest.raises(BuildError) as info:
        render_template(templates(tmp_path, text, seconds=60), "t.html", {"x": 0})
    assert message in str(info.value), str(info.value)
    assert "\n" not in str(info.value)


def test_a_template_that_is_not_utf8_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "t.html").write_bytes(b"ok\n\xff")
    with pytest.raises(BuildError, match=r"^templates/t\.html: line 2 column 1: expected UTF-8 text, found byte 0xff$"):
        render_template(make_env(tmp_path), "t.html", {})


@pytest.mark.parametrize("data", ['{"t": "a <!--<script> b"}', '{"t": "<SCRIPT>"}', '{"t": "<!-- x"}'])
def test_a_data_block_that_a_browser_would_run_past_is_a_problem(data: str) -> None:
    page = f'<html><body><script type="application/json" id="d">{data}</script><footer>f</footer></body></html>'
    problems = extract(page)["problems"]
    assert any("expected data with no '<!--' or '<script' in it" in p for p in problems), problems


def test_json_in_a_page_has_no_markup_opener() -> None:
    from site_builder.render.pages import json_script

    text = str(json_script({"title": "A <!--<script> title </script>"}))
    assert "<" not in text
    assert extract(f'<script type="application/json">{text}</script>')["problems"] == []


def test_an_interrupt_while_jinja_lexes_is_not_a_syntax_error() -> None:
    """Jinja's lexer wraps whatever it meets in TemplateSyntaxError; a SIGINT landing there stays an interrupt."""
    import jinja2

    from site_builder.outdir import Interrupted
    from site_builder.render.templates import _reraise_own

    try:
        try:
            raise Interrupted(2)
        except Interrupted as e:
            raise jinja2.TemplateSyntaxError("nothing was written", 1) from e
    except jinja2.TemplateSyntaxError as wrapped:
        with pytest.raises(Interrupted):
            _reraise_own(wrapped)
