"""The search index's terms (site_builder/search/terms.py): the rules its docstring states, word by word.
tests/browser/test_search.py requires the JavaScript copy to give the same terms for every word of the site."""

from __future__ import annotations

import pytest

from site_builder.search.terms import SUFFIXES, split_words, stem, terms

CASES = {
    "Trainers,": ("trainer",),
    "trainer": ("trainer",),
    "(gradients)": ("gradient",),
    "training": ("train",),
    "trained.": ("train",),
    "trains": ("train",),
    "computing": ("comput",),
    "compute": ("comput",),
    "studies": ("studi",),
    "studied": ("studi",),
    "study": ("studi",),
    "losses": ("loss",),
    "loss": ("loss",),
    "analysis": ("analysis",),
    "matches": ("match",),
    "running": ("run",),
    "calling": ("call",),
    "thing": ("thing",),
    "uses": ("use",),
    "optics": ("optic",),
    "optical": ("optical",),
    "exp.final.B.": ("exp.final.b",),
    "exp.final.C-1d256.": ("exp.final.c-1d256",),
    "exp.setting.eval_every": ("exp.setting.eval_everi",),
    "3.686": ("3.686",),
    "31,666,944.": ("31,666,944",),
    "1.0x.": ("1.0x",),
    "A100s": ("a100s",),
    "64×64": ("64×64", "64"),
    "all-reduce": ("all-reduc", "all", "reduc"),
    "top-k,": ("top-k", "top", "k"),
    "model's": ("model",),
    "model’s": ("model",),
    "results.md": ("results.md",),
    "data/simulation/results.md": ("data/simulation/results.md", "data", "simulation", "results.md"),
    "Fourier-domain": ("fourier-domain", "fourier", "domain"),
    "±": (),
    "—": (),
    "“Explained": ("explain",),
    "ΣΑΣ": ("σας",),
    "naïve": ("naïve",),
}


@pytest.mark.parametrize("word", sorted(CASES))
def test_a_word_gives_its_terms(word: str) -> None:
    assert terms(word) == CASES[word]


def test_the_stem_leaves_short_words_and_runs_after_digits() -> None:
    assert stem("uses") == "use" and stem("bus") == "bus" and stem("runs") == "run" and stem("gpus") == "gpus"
    assert stem("fp16s") == "fp16s" and stem("2dc4") == "2dc4"


def test_every_suffix_the_stemmer_removes_is_listed_for_completion() -> None:
    for word, suffix in (("trains", "s"), ("trained", "ed"), ("training", "ing"), ("matches", "es")):
        assert word.endswith(suffix) and stem(word) != word
    assert SUFFIXES == ("ing", "ed", "es", "s")


def test_words_split_on_javascripts_white_space_only() -> None:
    assert split_words(" a\u00a0b\u2009c\ufeffd\u200be\x1cf ") == ["a", "b", "c", "d\u200be\x1cf"]
