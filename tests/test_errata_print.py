"""The printable errata: HTML and PDF sharing the cards' style, on pages with margins, changed summaries
marked word by word, and every rulebook text escaped."""
from __future__ import annotations

import io
import re

from conftest import FIXTURES
from rulesdsl.errata.sheets import marked

ERRATA = FIXTURES / "errata"
OLD, NEW = ERRATA / "hedgerow-1.0.rules", ERRATA / "hedgerow-1.1.rules"


def test_word_level_marking_marks_only_the_changed_words():
    old, new = marked("Each side receives two air points each day turn.",
                      "Each side receives three air points each day turn.")
    assert str(old) == "Each side receives <del>two</del> air points each day turn."
    assert str(new) == "Each side receives <ins>three</ins> air points each day turn."
    old, new = marked("and forbid exploitation.", "and forbid both exploitation and overruns.")
    assert str(old) == "and forbid exploitation."             # punctuation is a word of its own
    assert str(new) == "and forbid <ins>both </ins>exploitation<ins> and overruns</ins>."


def test_word_level_marking_escapes_the_rulebook_text():
    old, new = marked('Units <b>may</b> move & "attack".', 'Units <script>x</script> move & "attack".')
    assert "<b>" not in old and "<script>" not in new
    # the marks are the only markup: without them, each side is its text, escaped
    assert re.sub(r"</?(del|ins)>", "", str(old)) == 'Units &lt;b&gt;may&lt;/b&gt; move &amp; &#34;attack&#34;.'
    assert re.sub(r"</?(del|ins)>", "", str(new)) == 'Units &lt;script&gt;x&lt;/script&gt; move &amp; &#34;attack&#34;.'


def test_a_hostile_summary_is_escaped_in_the_html_errata(project, capsys):
    project.add_base()
    text = OLD.read_text(encoding="utf-8")
    old = project.write("a.rules", text)
    new = project.write("b.rules", text.replace('"Mud hexes cost extra MPs to enter."',
                                                '"Mud hexes <script>alert(1)</script> cost extra & more MPs."'))
    code, out, err = project.run("diff", "--format", "html", str(old), str(new), capsys=capsys)
    assert code == 1, err
    assert "<script>alert" not in out
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in re.sub(r"</?(del|ins)>", "", out)
    assert "&amp;" in out


def test_the_html_errata_shares_the_card_style_with_page_margins(project, capsys):
    project.add_base()
    code, out, err = project.run("diff", "--format", "html", str(OLD), str(NEW), capsys=capsys)
    assert code == 1, err
    assert "header.card" in out and "section.chart" in out          # card.css, as the cards use it
    assert re.search(r"@page \{ size: 210mm 297mm; margin: 14mm 12mm 16mm; \}", out)
    assert "print-color-adjust: exact" in out
    assert "<h2>G4.0 Night turns</h2>" in out and '<h2 class="part">Designer&#39;s notes: no change to play</h2>' in out
    # each severity apart, rules changes first
    parts = re.findall(r'<h2 class="part">([^<]*)</h2>', out)
    assert parts == ["Rules changes: what players do is different",
                     "Worked examples: the new rules answer them otherwise",
                     "Clarifications: the words changed, not what the rules compute",
                     "Editorial: numbering, references and the version", "Designer&#39;s notes: no change to play"]
    assert '<p class="legend">A cell is named column x die roll: 3:1 x 4 is the 3:1 column at a roll of 4.</p>' in out
    assert "<li>What movement allowances are multiplied by in rain: 2/3</li>" in out
    assert not re.search(r"\b1 changes", out) and "21 changes" in out
    letter = project.run("diff", "--format", "html", "--paper", "letter", str(OLD), str(NEW), capsys=capsys)[1]
    assert "size: 8.5in 11in" in letter


def test_the_pdf_errata_is_written_to_a_file(project, capsys, tmp_path):
    from pypdf import PdfReader
    project.add_base()
    out = tmp_path / "errata.pdf"
    code, _, err = project.run("diff", "--format", "pdf", "--out", str(out), str(OLD), str(NEW), capsys=capsys)
    assert code == 1 and "wrote" in err, err
    reader = PdfReader(io.BytesIO(out.read_bytes()))
    assert 1 <= len(reader.pages) <= 4
    words = " ".join(" ".join(page.extract_text().split()) for page in reader.pages)
    assert "The extra MPs a unit spends to enter a mud hex" in words and "mud.extra_cost" not in words
    assert "page 1 of" in words
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (595, 842)     # A4, in points
    # a PDF goes to a file, never to the terminal
    code, _, err = project.run("diff", "--format", "pdf", str(OLD), str(NEW), capsys=capsys)
    assert code == 2 and "give --out FILE" in err


def test_out_writes_any_format_and_keeps_the_exit_status(project, capsys, tmp_path):
    project.add_base()
    out = tmp_path / "errata.md"
    code, stdout, err = project.run("diff", "--format", "md", "--out", str(out), str(OLD), str(NEW), capsys=capsys)
    assert (code, stdout) == (1, "")
    assert out.read_text(encoding="utf-8").startswith("# Errata: Hedgerow Test: 1.0 to 1.1")
    missing = tmp_path / "no-such-folder" / "x.md"
    code, _, err = project.run("diff", "--format", "md", "--out", str(missing), str(OLD), str(NEW), capsys=capsys)
    assert code == 2 and "cannot write" in err and not missing.exists()


def test_only_an_edited_text_is_marked_not_a_rewritten_one_nor_none():
    from rulesdsl.errata.diff import Change
    from rulesdsl.errata.sheets import _cells
    edited = Change("rule", "G4.0", "changed", "summary", "Night turns forbid exploitation.",
                    "Night turns forbid exploitation and overruns.")
    assert "<ins>" in str(_cells(edited)[1])
    rewritten = Change("rule", "6.0c", "changed", "summary", "Overrun targets may cost at most 1 MP.",
                       "A target hex may be overrun only if it would cost 2 MPs or less to enter.")
    assert _cells(rewritten) == (rewritten.old, rewritten.new)
    none = Change("rule", "6.0c", "changed", "designer's notes", "(none)", "Roads may not lower the cost.")
    assert _cells(none) == ("(none)", "Roads may not lower the cost.")
