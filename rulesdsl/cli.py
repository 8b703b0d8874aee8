"""The command line: rulesdsl check | build."""
from __future__ import annotations

import argparse
import contextlib
import dataclasses
import errno
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any
from pathlib import Path

from rulesdsl.version import __version__
from rulesdsl.model.papers import CARD_PAPERS
from typing import TYPE_CHECKING

if TYPE_CHECKING:   # the compiler is imported by the commands that compile, not by --version or --help
    from _typeshed import SupportsWrite
    from rulesdsl.errors import Diagnostic
    from rulesdsl.project.records import Compilation

EXIT_OK, EXIT_RULES, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
EXIT_UNFORMATTABLE = 123   # fmt: a file it cannot read, parse or write (black's status for this)


class Arguments(argparse.Namespace):
    """The parsed command line; a subcommand's options are set only when it is the one given."""

    project: Path | None
    command: str                   # check, chart, fmt, diff, build
    paths: list[Path]              # check, fmt
    check: bool                    # fmt, build
    diff: bool                     # fmt
    stdin_filename: str | None     # fmt
    rulebook: str                  # chart, coverage
    format: str                    # chart, diff, coverage
    lang: str                      # chart, diff
    paper: str                     # chart, diff
    out: Path | None               # chart, reference, diff
    old: str                       # diff
    new: str                       # diff
    resolved: bool                 # diff
    exit_zero: bool                # diff
    kind: str                      # new: game or series
    name: str                      # new
    extends: str | None            # new
    title: str | None              # new
    situation: str                 # explain
    query: list[str]               # explain
    mutate: bool                   # coverage
    floor: int | None              # coverage --mutate
    parameter: list[str]           # coverage --mutate
    preview: int | None            # watch: the preview's port (0: a free one), None: no preview
    shell: str                     # completion: bash, zsh or fish


class _Parser(argparse.ArgumentParser):
    """argparse's parser, but --help and --version that cannot reach standard output (closed, full) say so
    like every command, where argparse would drop the error and exit 0."""

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        if message and file is not None and file is sys.stdout:
            file.write(message)
        else:
            super()._print_message(message, file)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="rulesdsl",
        description="Compile wargame rulebooks written in the rulesdsl language.",
        epilog="Exit status: 0 clean, 1 the rulebooks have errors (or generated/ is stale with --check), "
               "2 usage error or an environment that refuses (a closed or full standard output, a full disk), "
               "3 a bug in rulesdsl; diff: 1 there are changes; fmt: 1 a file would be reformatted (--check, "
               "--diff), 123 a file it cannot read or parse.")
    parser.add_argument("--version", action="version", version=f"rulesdsl {__version__}")
    _project_option(parser, None)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    check = commands.add_parser("check", help="report every problem in the rulebooks; write nothing")
    _completes(check.add_argument("paths", nargs="*", type=Path, metavar="PATH",
                                  help="rulebook files (default: every rulebook under rulebooks/)"), "rulebook")
    check.add_argument("--notes", action="store_true",
                       help="list each inherited worked example a rulebook's own rules answer otherwise "
                            "(by default they are counted in one line)")
    check.add_argument("--format", choices=("text", "json", "github"), default="text",
                       help="text for people (standard error); json (a stable schema) or github (workflow "
                            "annotations) for tools, on standard output")
    check.add_argument("--cards", action="store_true",
                       help="also lay out each card as `build` does and report what it would refuse (a chart no "
                            "side holds, more sides than allowed) or warn of; seconds a card the first time")
    chart = commands.add_parser("chart", help="print a rulebook's player-aid card as HTML or PDF")
    _completes(chart.add_argument("rulebook", metavar="RULEBOOK", help="a rulebook file, or a rulebook id like scs-1.8"),
               "rulebook")
    chart.add_argument("--format", choices=("html", "pdf"), default="html")
    chart.add_argument("--lang", choices=("en", "fr"), default="en")
    chart.add_argument("--paper", choices=CARD_PAPERS, default=None,
                       help="the paper (default: the rulebook's card block, else a4)")
    _completes(chart.add_argument("--out", metavar="PATH", type=_out_file,
                                  help="where to write it (default: <module>.<lang>.<format> here; '-' for standard "
                                       "output)"), "file")
    coverage = commands.add_parser(
        "coverage", help="how many of a rulebook's parameters the rules engine executes, per category, and the lists",
        description="Count, per category (movement, zoc, stacking, combat, retreat, advance, overrun, "
                    "exploitation, supply), the parameters in effect that the engine executes, those marked "
                    "descriptive (with the reason) and those unaccounted for; then list them.")
    _completes(coverage.add_argument("rulebook", metavar="RULEBOOK",
                                     help="a rulebook file, or a rulebook id like scs-1.8"), "rulebook")
    coverage.add_argument("--format", choices=("text", "json"), default="text")
    coverage.add_argument("--mutate", action="store_true",
                          help="change each executed parameter to each other value it may take, run the worked "
                               "examples, and say which change an example catches")
    coverage.add_argument("--floor", type=_percent, metavar="PERCENT", default=None,
                          help="with --mutate: exit 1 when examples catch fewer than PERCENT%% of the executed "
                               "parameters")
    coverage.add_argument("--parameter", action="append", default=[], metavar="NAME",
                          help="with --mutate: change only this parameter (repeatable)")
    fmt = commands.add_parser(
        "fmt", help="rewrite rulebooks in the canonical layout (whitespace only)",
        description="Rewrite rulebooks in the canonical layout. It changes whitespace only; a file is "
                    "replaced whole, or left as it is.",
        epilog="Exit status: 0 every file is (now) canonical; 1 with --check or --diff, a file would be "
               "reformatted; 123 a file could not be read or parsed (the other files are still formatted "
               "or checked); 2 usage error.")
    fmt.add_argument("--check", action="store_true", help="write nothing; exit 1 if a file is not canonical")
    fmt.add_argument("--diff", action="store_true",
                     help="write nothing; print what would change as a unified diff, exit 1 if anything would")
    fmt.add_argument("--stdin-filename", metavar="NAME", default=None,
                     help="the name to give standard input in messages (implies '-' when no PATH is given)")
    _completes(fmt.add_argument("paths", nargs="*", type=Path, metavar="PATH",
                                help="rulebook files (default: every rulebook under rulebooks/); '-' reads standard "
                                     "input and writes the formatted text to standard output"), "rulebook")
    diff = commands.add_parser("diff", help="what changed between two versions of a rulebook (an errata sheet)")
    for side in ("old", "new"):
        _completes(diff.add_argument(side, metavar=side.upper(),
                                     help="a rulebook file, REV:path from git, or a rulebook id"), "rulebook")
    diff.add_argument("--format", choices=("text", "md", "json", "html", "pdf"), default="text")
    diff.add_argument("--paper", choices=CARD_PAPERS, default="a4", help="the page size of html and pdf")
    diff.add_argument("--lang", choices=("en", "fr"), default="en",
                      help="the sheet's language: its frame, and the rulebook's words its labels give (text, md, "
                           "html, pdf; json keeps ids)")
    _completes(diff.add_argument("--out", metavar="PATH", type=_out_file,
                                 help="write the errata to PATH (default: standard output; a pdf needs a file)"), "file")
    diff.add_argument("--resolved", action="store_true",
                      help="compare the rules in effect after overrides (what a player sees)")
    diff.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are changes")
    new = commands.add_parser(
        "new", help="write a starter rulebook that builds as it is: a game (and its project) or a series",
        description="Write rulebooks/NAME.rules in the project folder (the current folder, or -C DIR), "
                    "with pyproject.toml for a game if the folder has none, and print what to edit next. "
                    "Nothing is overwritten.")
    new.add_argument("kind", choices=("game", "series"), metavar="{game,series}")
    new.add_argument("name", metavar="NAME", help="the rulebook id, like my-title")
    new.add_argument("--extends", metavar="ID", default=None,
                     help="the series it extends: the project's own or the library's, like scs-1.8 "
                          "(none: a standalone game, or a series of its own)")
    new.add_argument("--title", metavar="TITLE", default=None, help="its title (default: from NAME)")
    commands.add_parser("lsp", help="run the language server on standard input and output (for an editor)")
    docs = commands.add_parser("docs", help="print the language guide (docs/language.md, installed with rulesdsl)")
    docs.add_argument("--path", action="store_true", help="print where the guide is, not the guide")
    reference = commands.add_parser(
        "reference", help="print the language reference (docs/reference.md) generated from the compiler's sources")
    _completes(reference.add_argument("-o", "--out", metavar="PATH", type=_out_file, default=None,
                                      help="write it to PATH (default: standard output)"), "file")
    explain = commands.add_parser(
        "explain", help="ask the rules engine about a situation and print the derivation, rule by rule",
        description="Answer a query about a situation under a rulebook's rules, printing each step of the "
                    "derivation with the rule id, the rulebook, file and line it comes from.")
    _completes(explain.add_argument("rulebook", metavar="RULEBOOK",
                                    help="a rulebook file, or a rulebook id like scs-1.8"), "rulebook")
    _completes(explain.add_argument("situation", metavar="SITUATION",
                                    help="a file in the situation notation, '-' for standard input, or the lines "
                                         "themselves with ';' between them ('map 1.01 - 5.05 open; unit a x 3-2-9 "
                                         "at 2.02')"), "file")
    explain.add_argument("query", nargs="+", metavar="QUERY",
                         help="the query of an expect line: move 6 23.16 24.16, reach 6, zoc axis, stack 10.07, "
                              "supply 3, overrun 5 6 from 11.08 on 11.07, exploit 7, attack 4 6 on 10.10, "
                              "retreat 7 2, advance 5 into 11.07 after 2, combat 4 6 on 10.10 roll 7")
    explain.add_argument("--format", choices=("text", "json"), default="text")
    build = commands.add_parser("build", help="compile every rulebook into generated/ (modules and charts)")
    build.add_argument("--check", action="store_true",
                       help="write nothing; exit 1 if generated/ is not what a build would write")
    build.add_argument("--notes", action="store_true",
                       help="list each inherited worked example a rulebook's own rules answer otherwise")
    watch = commands.add_parser("watch", help="build again on every save of a rulebook; --preview serves the "
                                              "cards, which reload after each build")
    watch.add_argument("--preview", nargs="?", type=int, const=0, default=None, metavar="PORT",
                       help="serve the generated cards on http://127.0.0.1:PORT/ (a free port if none is given)")
    completion = commands.add_parser(
        "completion", help="print the shell completion script for bash, zsh or fish",
        description="Print the completion script of rulesdsl for a shell: its subcommands, options, the "
                    "choices of --format, --lang and --paper, and rulebook files (*.rules).",
        epilog="bash: eval \"$(rulesdsl completion bash)\" in ~/.bashrc; zsh: rulesdsl completion zsh > "
               "a folder of $fpath as _rulesdsl; fish: rulesdsl completion fish > "
               "~/.config/fish/completions/rulesdsl.fish")
    completion.add_argument("shell", choices=("bash", "zsh", "fish"), metavar="{bash,zsh,fish}")
    for command in (check, chart, coverage, fmt, diff, new, explain, build, watch):   # those that work in a project
        _project_option(command, argparse.SUPPRESS)     # after the command too: `rulesdsl check -C DIR`
    return parser


def _completes(action: argparse.Action, kind: str) -> None:
    """Mark what an argument names, for the completion scripts: a rulebook (*.rules), any file or a folder
    (rulesdsl/editor/completion.py reads the mark; it is not imported here, to keep start-up light)."""
    setattr(action, "rulesdsl_completes", kind)


def _project_option(parser: argparse.ArgumentParser, default: object) -> None:
    _completes(parser.add_argument("-C", "--project", metavar="DIR", type=Path, default=default,
                                   help="the project folder (the one holding rulebooks/); default: the current "
                                        "folder or the nearest one above it that has rulebooks/"), "directory")


def _out_file(text: str) -> Path:
    """An --out argument: a file name ('-' for standard output), never empty."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty name: give a file name, or '-' for standard output")
    return Path(text)


def _write_out(out: Path, content: str | bytes) -> str | None:
    """Write an --out file whole (write_atomically); the reason it cannot be, else None."""
    from rulesdsl.project.build import write_atomically
    if out.is_dir():
        return f"cannot write {out}: it is a folder; give a file name (nothing was written)"
    try:
        write_atomically(out, content)
    except OSError as exc:
        return f"cannot write {out}: {exc.strerror or exc} (nothing was written)"
    return None


def _emit(content: str | bytes) -> None:
    """Write a document on standard output whole: bytes as they are, text as `print` would encode it.  A
    large write that the pipe takes only in part (its reader left) is written on until the pipe says so
    (BrokenPipeError), where io's buffered write returns the part and drops the rest without an error."""
    stream = sys.stdout
    binary = getattr(stream, "buffer", None)
    if binary is None:                  # a text stream only (a test's StringIO)
        stream.write(content.decode("utf-8") if isinstance(content, bytes) else content)
        return
    data = content if isinstance(content, bytes) else \
        content.encode(stream.encoding or "utf-8", stream.errors or "strict")
    stream.flush()
    view = memoryview(data)
    while view:
        written = binary.write(view)
        view = view[written or len(view):]     # None: a raw stream's 'nothing now', never io's
    binary.flush()


def _detach_stdout() -> None:
    """Standard output that cannot be written (a closed pipe, a full disk): point it at the null device, so
    that Python's own flush at exit neither fails nor prints "Exception ignored"."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):
        pass      # not a file descriptor (a test's capture): nothing to detach


# an OSError with no file name that standard output gives: full, not open for writing, gone
_STDOUT_ERRORS = (errno.ENOSPC, errno.EBADF, errno.EPIPE)


def main(argv: list[str] | None = None) -> int:
    """The console script: the exit status of the command (0 clean, 1 rulebook errors, 2 usage or an
    environment that refuses, 3 a bug in rulesdsl), never a traceback."""
    if sys.stdout is None:          # started with standard output closed (`rulesdsl check >&-`)
        if sys.stderr is not None:
            print("rulesdsl: error: standard output is closed; nothing was done "
                  "(send it to /dev/null to discard it)", file=sys.stderr)
        return EXIT_USAGE
    try:
        status = _main(argv)
        if not getattr(sys.stdout, "closed", False):   # the language server closes it when the editor leaves
            sys.stdout.flush()      # a full disk or a closed pipe on standard output shows here, not at exit
        return status
    except SystemExit as exc:       # --help, --version, a usage error: argparse printed, and exits
        if exc.code == 0 and not getattr(sys.stdout, "closed", False):
            try:
                sys.stdout.flush()
            except OSError:         # what it printed did not reach standard output
                _detach_stdout()
                return EXIT_USAGE
        raise
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:         # the reader went away (rulesdsl ... | head): stop quietly, as Unix tools do
        _detach_stdout()
        return EXIT_USAGE
    except OSError as exc:          # the environment, not a bug: a full disk, a file that cannot be written
        from rulesdsl.errors import visible
        _detach_stdout()
        where = f"{exc.filename}: " if exc.filename else "standard output: " if exc.errno in _STDOUT_ERRORS else ""
        print(f"rulesdsl: error: {visible(where)}{visible(exc.strerror or str(exc))}", file=sys.stderr)
        return EXIT_USAGE
    except Exception as exc:  # a compiler bug: say so plainly, without a traceback
        from rulesdsl.errors import visible
        print(f"rulesdsl: internal error: {type(exc).__name__}: {visible(str(exc))}", file=sys.stderr)
        print("this is a bug in rulesdsl, not in your rulebook; please report it with the rulebook attached",
              file=sys.stderr)
        return EXIT_INTERNAL


def _main(argv: list[str] | None) -> int:
    args = _parser().parse_args(argv, namespace=Arguments())   # --version, --help and usage errors end here
    if args.command == "new":
        return _new(args.project or Path.cwd(), args)
    if args.command == "reference":
        return _reference(args.out)
    if args.command == "docs":
        return _docs(args.path)
    if args.command == "lsp":
        from rulesdsl.editor.server import main as serve
        return serve()
    if args.command == "completion":
        return _completion(args.shell)
    start = args.project if args.project else Path.cwd()
    if args.project and not (args.project / "rulebooks").is_dir():
        return _usage(f"{args.project} has no rulebooks/ folder")
    from rulesdsl.project.build import find_root
    root = find_root(start.resolve())
    _ROOT[:] = [root] if root is not None else []
    paths: list[Path] | None = getattr(args, "paths", None) or None
    if args.command == "fmt" and args.stdin_filename is not None and not paths:
        paths = [Path("-")]   # as ruff: a name for standard input means standard input
    names_one = args.command in ("chart", "coverage", "explain", "diff")   # rulebook files or ids: no project needed
    if not paths and not names_one:
        if root is None:
            return _usage("no rulebooks/ folder here or in any folder above; run inside a project, "
                          "use --project DIR, or name rulebook files")
        if not any((root / "rulebooks").rglob("*.rules")):
            return _usage(f"no rulebook (*.rules) under {root / 'rulebooks'}")
    if args.command == "check":
        return _check(root, paths, args.notes, args.cards, args.format)
    if args.command == "chart":
        return _chart(root, args)
    if args.command == "fmt":
        return _fmt(root, paths, args)
    if args.command == "coverage":
        return _coverage(root, args)
    if args.command == "diff":
        return _diff(root, args)
    if args.command == "explain":
        return _explain(root, args)
    assert root is not None   # build and watch name no files: the project was found above
    if args.command == "watch":
        return _watch(root, args.preview)
    return _build(root, args.check, args.notes)


def _watch(root: Path, preview: int | None) -> int:
    from rulesdsl.editor.watch import watch
    from rulesdsl.errors import RulesError
    from rulesdsl.project.settings import SHIPPED_SHOWN, load_config
    try:
        config = load_config(root)
    except RulesError as exc:
        print(_render(exc.diagnostics, exc.sources), file=sys.stderr)
        return EXIT_RULES

    def build() -> int:
        status = _build(root, False)
        sys.stdout.flush()
        sys.stderr.flush()
        return status

    def say(text: str) -> None:
        print(text, flush=True)
    rulebooks = (root / "rulebooks").resolve()
    folders = [rulebooks, *(f.path for f in config.library.folders if f.shown != SHIPPED_SHOWN
                            and rulebooks not in (f.path.resolve(), *f.path.resolve().parents))]
    try:
        return watch(root, build, folders, charts=root / config.package / "charts", preview_port=preview, say=say)
    except OSError as exc:
        if preview is not None and exc.filename is None:
            return _usage(f"cannot serve the preview on port {preview}: {exc.strerror or exc}")
        raise


def _reference(out: Path | None) -> int:
    from rulesdsl.project.reference import generate, shipped_reference
    try:
        text = generate()
    except FileNotFoundError:   # installed: no broken-rulebook corpus; the reference released with the package
        text = shipped_reference()
    data = text.encode("utf-8")        # the same bytes whatever the locale
    if out is None or str(out) == "-":
        _emit(data)
        return EXIT_OK
    problem = _write_out(out, data)
    return EXIT_OK if problem is None else _usage(problem)


def _completion(shell: str) -> int:
    """The shell completion script of this command line, on standard output."""
    try:
        from rulesdsl.editor.completion import script
        text = script(_parser(), shell)
    except ImportError as exc:
        if exc.name != "shtab":
            raise
        return _usage("the completion scripts need shtab, which is not installed in this environment: "
                      "pip install 'shtab>=1.13,<2' (it comes with rulesdsl's dependencies)")
    sys.stdout.write(text)
    return EXIT_OK


def _docs(path_only: bool) -> int:
    """The language guide: its text on standard output (pipe it to a pager), or where it is installed."""
    from rulesdsl.project.reference import docs_folder
    guide = docs_folder() / "language.md"
    if path_only:
        print(guide)
        return EXIT_OK
    _emit(guide.read_text(encoding="utf-8"))
    return EXIT_OK


_ROOT: list[Path] = []      # the project of this command, if any (_main sets it)


def _render(diagnostics: Iterable[Diagnostic], sources: Mapping[str, str]) -> str:
    """The one renderer (errors.render_all), with each project path as seen from where the user stands, in
    colour on a terminal (errors.coloured; not with NO_COLOR set, TERM=dumb, or standard error redirected)."""
    from rulesdsl.errors import coloured, render_all as _render_all
    moved, seen_sources = _as_seen(diagnostics, sources)
    text = _render_all(moved, seen_sources)
    return coloured(text) if _colour() else text


def _colour() -> bool:
    """Whether diagnostics are coloured: standard error is a terminal, and neither NO_COLOR (no-color.org)
    nor TERM=dumb says otherwise."""
    stream = sys.stderr
    return bool(getattr(stream, "isatty", lambda: False)()) and not os.environ.get("NO_COLOR") and \
        os.environ.get("TERM") != "dumb"


def _as_seen(diagnostics: Iterable[Diagnostic], sources: Mapping[str, str]
             ) -> tuple[list[Diagnostic], dict[str, str]]:
    """Each path as seen from where the user stands (build.seen_path): `x.rules` in rulebooks/games/,
    `dir/rulebooks/x.rules` with `-C dir`, the shipped library where it is installed: what a terminal or an
    editor opens; so is a rulebook's path a message or hint cites (`already defined by scs-1.8
    (rulesdsl/library/scs-1.8.rules:102)`).  Generated code keeps the project's own paths, whatever the
    current folder."""
    diagnostics = list(diagnostics)
    cited = _citing({*sources, *(d.span.path for d in diagnostics)})

    def moved(d: Diagnostic) -> Diagnostic:
        return dataclasses.replace(d, span=dataclasses.replace(d.span, path=_seen(d.span.path)),
                                   message=cited(d.message), hint=None if d.hint is None else cited(d.hint))
    return [moved(d) for d in diagnostics], {_seen(path): text for path, text in sources.items()}


def _seen(path: str) -> str:
    from rulesdsl.project.build import seen_path
    return seen_path(path, _ROOT[0] if _ROOT else None)


def _citing(paths: Iterable[str]) -> Callable[[str], str]:
    """A text with each of `paths` (and any shipped library rulebook's) it cites as the user sees it."""
    import re
    from rulesdsl.project.settings import SHIPPED_SHOWN
    known = sorted((p for p in set(paths) if p and _seen(p) != p), key=len, reverse=True)
    alternatives = [re.escape(p) for p in known] + [re.escape(SHIPPED_SHOWN) + r"/[A-Za-z0-9][A-Za-z0-9.\-]*\.rules"]
    pattern = re.compile(r"(?<![\w./-])(?:" + "|".join(alternatives) + r")(?![\w/-])")
    return lambda text: pattern.sub(lambda m: _seen(m.group(0)), text)


def _usage(message: str) -> int:
    from rulesdsl.errors import visible
    print(f"rulesdsl: error: {visible(message)}", file=sys.stderr)
    return EXIT_USAGE


def _report(compilation: Compilation, notes: bool = False) -> None:
    """The diagnostics, then the notes about inherited worked examples: each with `notes`, else counted in one
    line (they say where a rulebook's own rules change an answer of its series, which is what a game is for)."""
    from rulesdsl.errors import visible
    shown = [*compilation.diagnostics, *(compilation.notes if notes else ())]
    if shown:
        print(_render(shown, compilation.sources), file=sys.stderr)
    if compilation.notes and not notes:
        lines = sum(len((n.hint or "").split("\n")) for n in compilation.notes)
        names = sorted({n.message.split(" ", 1)[0] for n in compilation.notes})
        books = " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)
        print(f"note: {lines} expect line{'s' if lines != 1 else ''} of the worked examples {visible(books)} "
              f"inherit{'s' if len(names) == 1 else ''} answer{'s' if lines == 1 else ''} otherwise under "
              f"{'its' if len(names) == 1 else 'their'} own rules (--notes lists them)", file=sys.stderr)
    errors = sum(d.severity == "error" for d in compilation.diagnostics)
    noun = "rulebook" if compilation.checked == 1 else "rulebooks"
    if errors and compilation.checked:
        print(f"{compilation.checked} {noun} checked: {errors} error{'s' if errors != 1 else ''}", file=sys.stderr)


def _untrusted_cache_note() -> None:
    """One line when a cache folder was not used because another user could have written it (the run is what
    it would be without a cache, only slower)."""
    from rulesdsl import cache
    from rulesdsl.errors import visible
    if cache.refused:
        where, why = next(iter(cache.refused.items()))
        more = len(cache.refused) - 1
        also = f" ({more} more folder{'s' if more > 1 else ''} likewise)" if more else ""
        print(f"note: the cache folder {visible(where)} was not used: {why}{also}", file=sys.stderr)


def _check(root: Path | None, paths: list[Path] | None, notes: bool = False, cards: bool = False,
           format: str = "text") -> int:
    from rulesdsl import cache
    from rulesdsl.project.build import compile_project, shown_path
    cache.refused.clear()
    compilation = compile_project(root, paths)
    if cards and compilation.ok:      # laid out only for rulebooks that compile, as a build would
        from rulesdsl.project.build import card_problems
        targets = None if not paths or root is None else {shown_path(p, root) for p in paths}
        compilation.diagnostics += card_problems(compilation, targets)
    if format != "text":             # for tools: everything on standard output, the exit status as for text
        from rulesdsl.errors import render_github, render_json
        diagnostics, _ = _as_seen(compilation.diagnostics, {})
        found_notes, _ = _as_seen(compilation.notes, {})
        _emit(render_json(diagnostics, found_notes, compilation.checked) if format == "json" else
                         render_github([*diagnostics, *(found_notes if notes else ())]))
        return EXIT_OK if compilation.ok else EXIT_RULES
    _report(compilation, notes)
    _untrusted_cache_note()
    if not compilation.ok:
        return EXIT_RULES
    warned = sum(1 for d in compilation.diagnostics if d.severity == "warning")
    said = f"{warned} warning{'s' if warned != 1 else ''}" if warned else "no problems"
    print(f"{compilation.checked} {'rulebook' if compilation.checked == 1 else 'rulebooks'} checked: {said}")
    return EXIT_OK


def _diff(root: Path | None, args: Arguments) -> int:
    from rulesdsl.errors import visible
    from rulesdsl.errata.diff import compare, snapshot
    from rulesdsl.errata.examples import answered_otherwise
    from rulesdsl.cards.labeler import book_labels, label_layers
    from rulesdsl.errata.sheets import RENDERERS, Words, html, markdown, pdf, text
    from rulesdsl.errors import RulesError
    from rulesdsl.project.build import SideError, load_rulebook_side
    try:
        before, after = (load_rulebook_side(root, spec, args.resolved) for spec in (args.old, args.new))
    except SideError as exc:
        return _usage(str(exc))
    except RulesError as exc:
        print(_render(exc.diagnostics, exc.sources), file=sys.stderr)
        return EXIT_USAGE
    old, new = (snapshot(s.rulebook, s.effective, s.declared, s.applies) for s in (before, after))
    changes = compare(old, new)
    if any(c.severity == "rules" for c in changes) and before.applies is not None and after.applies is not None:
        # what the rules changes do to the worked examples of this rulebook and of those extending it
        main = before.rulebook.id.value
        changes += answered_otherwise({main: before.applies, **before.dependents},
                                      {main: after.applies, **after.dependents}, main)
    changes = [_seen_change(c) for c in changes]
    status = EXIT_OK if args.exit_zero or not changes else EXIT_RULES
    layers = label_layers(after.applies, after.labels) if after.applies is not None else \
        [book_labels(after.rulebook), after.labels]
    words = Words.of(args.lang, layers)
    content: str | bytes
    if args.format == "pdf":
        if args.out is None or str(args.out) == "-":
            return _usage("a PDF is not written to standard output: give --out FILE")
        content = pdf(changes, old, new, args.paper, words)
    elif args.format == "html":
        content = html(changes, old, new, args.paper, words)
    elif args.format == "text":
        content = text(changes, old, new, words)
    elif args.format == "md":
        content = markdown(changes, old, new, words)
    else:
        content = RENDERERS[args.format](changes, old, new)
    if args.out is None or str(args.out) == "-":
        assert isinstance(content, str)
        _emit(content)
        return status
    problem = _write_out(args.out, content)
    if problem is not None:
        return _usage(problem)
    print(f"wrote {visible(str(args.out))}", file=sys.stderr)
    return status


def _seen_change(change: Any) -> Any:
    """An errata change with the rulebook file it cites (an example's: errata/examples.py) as seen from
    where the user stands (build.seen_path)."""
    if change.area != "examples" or len(change.parts) < 5:
        return change
    path = change.parts[3]
    cited = _citing([path])
    return dataclasses.replace(change, details=tuple(cited(d) for d in change.details),
                               parts=(*change.parts[:3], _seen(path), *change.parts[4:]))


def _count(n: int, what: str) -> str:
    return f"{n} file{'' if n == 1 else 's'} {what}"


def _fmt(root: Path | None, paths: list[Path] | None, args: Arguments) -> int:
    """Like black and ruff format: 0 nothing to do (or done), 1 with --check or --diff a file would be
    reformatted, EXIT_UNFORMATTABLE a file could not be read, parsed or written (the others are still
    formatted; a file is replaced whole or left as it is)."""
    files = _fmt_files(root, paths, args)
    if isinstance(files, int):
        return files
    report_only = args.check or args.diff
    found = _format_files(files, root, args.stdin_filename, report_only)
    if found.problems:
        print(_render(found.problems, found.sources), file=sys.stderr)
    written = failed = 0
    for change in found.changed:
        if report_only:
            _report_unformatted(change, args.diff)
        elif change.target is not None:
            if _write_formatted(change.target, change):
                written += 1
            else:
                failed += 1
    failed += found.failed
    status = EXIT_UNFORMATTABLE if failed else EXIT_RULES if report_only and found.changed else EXIT_OK
    stdin = any(str(file) == "-" for file in files)
    if stdin and not report_only and not status:
        return status   # a filter says nothing when all went well
    quiet_stdout = stdin or args.diff   # standard output carries the text or the diff
    print(_fmt_summary(len(found.changed) if report_only else 0, written, found.unchanged, failed),
          file=sys.stderr if status or quiet_stdout else sys.stdout)
    return status


def _fmt_files(root: Path | None, paths: list[Path] | None, args: Arguments) -> list[Path] | int:
    """The files fmt formats: those named (each once; '-' standard input, alone), or the project's
    rulebooks; or the usage error's exit status, having said why."""
    import os
    from rulesdsl.project.build import rulebook_files
    stdin = [p for p in paths or () if str(p) == "-"]
    if stdin and len(paths or ()) > 1:
        return _usage("'-' (standard input) must be the only PATH")
    if args.stdin_filename is not None and not stdin:
        return _usage("--stdin-filename names standard input: give '-' as the PATH, or no PATH")
    if paths:
        return list({os.path.abspath(p) if str(p) != "-" else "-": p for p in paths}.values())
    assert root is not None   # _main found the project, as no files were named
    return rulebook_files(root)


@dataclasses.dataclass(frozen=True)
class _Unformatted:
    """A file whose bytes are not its canonical layout: where it is (None: standard input), its name as
    shown, its bytes, its text and its text formatted."""

    target: Path | None
    shown: str
    data: bytes
    before: str
    formatted: str


@dataclasses.dataclass(frozen=True)
class _Formatted:
    """The files fmt read and formatted: those not canonical, how many were, how many could not be read or
    parsed (or fmt refused its own output), and why, with the sources the reasons quote."""

    changed: tuple[_Unformatted, ...]
    unchanged: int
    failed: int
    problems: tuple[Diagnostic, ...]
    sources: Mapping[str, str]


def _format_files(files: list[Path], root: Path | None, stdin_filename: str | None,
                  report_only: bool) -> _Formatted:
    """Reads and formats each file; standard input formatted (not only checked) is written to standard
    output as it is formatted, byte for byte, whatever it was: fmt is then a filter."""
    from rulesdsl.errors import RulesError
    from rulesdsl.project.build import shown_path
    problems: list[Diagnostic] = []
    sources: dict[str, str] = {}
    changed: list[_Unformatted] = []
    failed = unchanged = 0
    for file in files:
        from_stdin = str(file) == "-"
        shown = (stdin_filename or "<stdin>") if from_stdin else shown_path(file, root)
        try:
            data, before, formatted = _read_formatted(file, shown, root, from_stdin)
        except RulesError as exc:  # unreadable, a syntax error, or fmt refusing its own output: left alone
            problems += exc.diagnostics
            sources.update(exc.sources)
            failed += 1
            continue
        if from_stdin and not report_only:
            _emit(formatted.encode("utf-8"))
        if data == formatted.encode("utf-8"):   # the bytes: CRLF or CR line ends and a BOM are not canonical
            unchanged += 1
        else:
            changed.append(_Unformatted(None if from_stdin else file, shown, data, before, formatted))
    return _Formatted(tuple(changed), unchanged, failed, tuple(problems), sources)


def _read_formatted(file: Path, shown: str, root: Path | None, from_stdin: bool) -> tuple[bytes, str, str]:
    """A file's bytes (standard input's when `from_stdin`), its text and its canonical layout; raises
    RulesError when it cannot be read or parsed."""
    from rulesdsl.language.fmt import format_source
    from rulesdsl.language.source import read_bytes, read_source, read_stdin
    data = read_stdin(shown) if from_stdin else read_bytes(file, shown, root)
    source = read_source(file, shown, data=data)
    return data, source.text, format_source(source)


def _report_unformatted(change: _Unformatted, diff: bool) -> None:
    """--check or --diff on a file not canonical: says so, with --diff the diff to standard output and, when
    only its bytes differ (line ends, a BOM), what it would lose."""
    from rulesdsl.errors import visible, visible_lines
    from rulesdsl.language.fmt import unified_diff
    shown, data = change.shown, change.data
    if diff:
        _emit(visible_lines(unified_diff(shown, change.before, change.formatted)))
        if change.before == change.formatted:   # the text is canonical, its bytes are not: say what the diff cannot
            what = [w for w, there in (("its CRLF or CR line ends", b"\r" in data),
                                        ("its byte order mark", data.startswith(b"\xef\xbb\xbf"))) if there]
            print(f"{visible(shown)}: would lose {' and '.join(what)}", file=sys.stderr)
    print(f"not canonical: {visible(shown)}", file=sys.stderr)


def _write_formatted(target: Path, change: _Unformatted) -> bool:
    """Replaces the file with its canonical layout, whole, and says so; False (reported) when it cannot be
    written, and is left as it is."""
    from rulesdsl.errors import Diagnostic, Span, visible
    from rulesdsl.project.build import write_atomically
    try:
        write_atomically(target, change.formatted.encode("utf-8"))
    except OSError as exc:
        print(_render([Diagnostic(f"cannot write the formatted file: {exc.strerror or exc} "
                                     "(file left as it is)", Span(change.shown))], {}), file=sys.stderr)
        return False
    print(f"formatted {visible(change.shown)}")
    return True


def _fmt_summary(would_change: int, written: int, unchanged: int, failed: int) -> str:
    """fmt's last line: how many files would be reformatted (with --check or --diff), were formatted, were
    already canonical (also when there is nothing else to say) and could not be formatted."""
    parts = []
    if would_change:
        parts.append(_count(would_change, "would be reformatted"))
    if written:
        parts.append(_count(written, "formatted"))
    if unchanged or not (parts or failed):
        parts.append(_count(unchanged, "already canonical"))
    if failed:
        parts.append(_count(failed, "could not be formatted"))
    return ", ".join(parts)


def _one_rulebook(root: Path | None, name: str) -> tuple[Compilation, str] | int:
    """The project compiled for the rulebook `name` (a .rules path, or an id of the project or the library)
    and its key; or the exit status, having reported why there is none."""
    from rulesdsl.project.build import compile_project, shown_path
    as_path = Path(name)
    is_file = as_path.suffix == ".rules" or as_path.exists()
    # an id may be the project's own rulebook or a library one (a shipped series' card)
    compilation = compile_project(root, [as_path] if is_file else None, () if is_file else (name,),
                                  examples=False, generate=False)   # its modules and examples are `check`'s business
    key = next((k for k, r in compilation.rulebooks.items() if r.path == shown_path(as_path, root)), None) \
        if is_file else name
    if not compilation.ok:
        _report(compilation)
        return EXIT_RULES
    if key is None or key not in compilation.resolved:
        known = ", ".join(sorted(set(compilation.resolved) - compilation.library))
        return _usage(f"no rulebook '{name}' in this project (rulebooks: {known}; "
                      f"library: {', '.join(compilation.library_ids)})")
    return compilation, key


def _chart(root: Path | None, args: Arguments) -> int:
    from rulesdsl.errors import visible, visible_lines
    from rulesdsl.modules.codegen import module_name
    from rulesdsl.project.build import print_card
    if args.out is not None and str(args.out) != "-" and not args.out.parent.is_dir():
        return _usage(f"cannot write {args.out}: the folder {args.out.parent} does not exist (nothing was written)")
    found = _one_rulebook(root, args.rulebook)
    if isinstance(found, int):
        return found
    compilation, key = found
    # the HTML is the card as laid out for print, on at most the sides its card block allows
    _, html, pdf, warnings = print_card(compilation.resolved[key], args.lang, compilation.labels, args.paper,
                                        args.format == "pdf")
    content: str | bytes | None = pdf if args.format == "pdf" else (None if pdf is None else html)
    if warnings:
        print(_render(warnings, compilation.sources), file=sys.stderr)
    if content is None:
        print("nothing was written", file=sys.stderr)
        return EXIT_RULES
    out = args.out or Path(f"{module_name(key)}.{args.lang}.{args.format}")
    if str(out) == "-":
        if isinstance(content, bytes):
            return _usage("a PDF is not written to standard output: give --out FILE")
        _emit(visible_lines(content))
        return EXIT_OK
    problem = _write_out(out, content)
    if problem is not None:
        return _usage(problem)
    print(f"wrote {visible(str(out))}")
    return EXIT_OK


def _percent(text: str) -> int:
    value = int(text.rstrip("%")) if text.rstrip("%").isdigit() else -1
    if not 0 <= value <= 100:
        raise argparse.ArgumentTypeError(f"a whole percentage from 0 to 100, not {text!r}")
    return value


def _coverage(root: Path | None, args: Arguments) -> int:
    from rulesdsl.errors import visible_lines
    from rulesdsl.project.coverage import measure, render_json, render_text
    if (args.floor is not None or args.parameter) and not args.mutate:
        return _usage("--floor and --parameter go with --mutate")
    found = _one_rulebook(root, args.rulebook)
    if isinstance(found, int):
        return found
    compilation, key = found
    if args.mutate:
        return _mutate(compilation, key, args)
    coverage = measure(compilation.resolved[key])
    _emit(visible_lines(render_json(coverage) if args.format == "json" else render_text(coverage)))
    return EXIT_OK


def _mutate(compilation: Compilation, key: str, args: Arguments) -> int:
    from rulesdsl.errors import visible_lines
    from rulesdsl.errors import RulesError
    from rulesdsl.project import mutation
    from rulesdsl.project.coverage import measure
    examples = [e for book in sorted(compilation.rulebooks) for e in compilation.rulebooks[book].examples]
    known = mutation.executed(measure(compilation.resolved[key]))
    unknown = [name for name in args.parameter if name not in known]
    if unknown:
        from rulesdsl.errors import suggest
        near = suggest(unknown[0], known)
        return _usage(f"{key} executes no parameter {unknown[0]!r}{f' ({near})' if near else ''}; "
                      f"'rulesdsl coverage {key}' lists those it does")
    def show(name: str) -> None:
        sys.stderr.write(f"\r\033[Kmutating {name}")
        sys.stderr.flush()
    progress: Callable[[str], None] | None = show if sys.stderr.isatty() else None
    try:
        found = mutation.mutate(compilation.resolved[key], examples, args.parameter, progress,
                                mutation.descendants(compilation.resolved, key))
    except RulesError as exc:
        print(_render(exc.diagnostics, compilation.sources), file=sys.stderr)
        return EXIT_RULES
    finally:
        if progress is not None:
            sys.stderr.write("\r\033[K")
    _emit(visible_lines(mutation.render_json(found) if args.format == "json" else
                                   mutation.render_text(found)))
    share = found.caught_share()
    if args.floor is not None and share is not None and share * 100 < args.floor:
        print(f"rulesdsl: examples catch {round(share * 100)}% of {key}'s executed parameters, below the floor of "
              f"{args.floor}%", file=sys.stderr)
        return EXIT_RULES
    return EXIT_OK



def _names_a_file(text: str) -> bool:
    """Whether an explain SITUATION argument is a file: the lines themselves (with ';' or a line end between
    them, however long) never are, and a name the system cannot even look up is no file either."""
    if ";" in text or "\n" in text:
        return False
    try:
        return Path(text).is_file()
    except OSError:      # a name too long for the file system, say
        return False

def _explain(root: Path | None, args: Arguments) -> int:
    from rulesdsl.errors import visible_lines
    from rulesdsl.project.build import shown_path
    import json
    from rulesdsl.modules.codegen import module_name
    from rulesdsl.errors import RulesError
    from rulesdsl.checks.examples import explain
    from rulesdsl.modules.modcheck import Variants, build_module, load_module
    from rulesdsl.language.source import Source, read_source, read_stdin
    found = _one_rulebook(root, args.rulebook)
    if isinstance(found, int):
        return found
    compilation, key = found
    source_text, problems = build_module(compilation.resolved[key])
    module = load_module(module_name(key), source_text)[0] if source_text is not None else None
    if module is None:
        print(_render(problems, compilation.sources), file=sys.stderr)
        return EXIT_RULES
    try:
        if args.situation == "-":
            situation = read_source(Path("-"), "<stdin>", data=read_stdin("<stdin>"))
        elif _names_a_file(args.situation):
            situation = read_source(Path(args.situation), shown_path(Path(args.situation), root), root=root)
        else:
            situation = Source("<situation>", args.situation.replace(";", "\n"))
        resolved = compilation.resolved[key]
        explanation = explain(module, situation, " ".join(args.query), resolved, Variants(resolved).get)
        explanation = _seen_explanation(explanation)
    except RulesError as exc:
        print(_render(exc.diagnostics, exc.sources), file=sys.stderr)
        return EXIT_RULES
    if args.format == "json":
        _emit(json.dumps(explanation.as_json(), indent=2, ensure_ascii=False) + "\n")
    else:
        _emit(visible_lines(explanation.text()))
    return EXIT_OK


def _seen_explanation(explanation: Any) -> Any:
    """An explanation whose steps cite their rulebook's file (`path:line`, the module's machine-independent
    name) as seen from where the user stands (build.seen_path)."""
    def seen(step: Any) -> Any:
        if not step.source:
            return step
        path, colon, line = step.source.rpartition(":")
        return dataclasses.replace(step, source=f"{_seen(path)}:{line}" if colon and line.isdigit() else
                                   _seen(step.source))
    answer = explanation.answer
    return dataclasses.replace(explanation, answer=dataclasses.replace(answer, steps=tuple(map(seen, answer.steps))))


def _new(folder: Path, args: Arguments) -> int:
    from rulesdsl.errors import visible
    from rulesdsl.errors import RulesError
    from rulesdsl.project.starter import StarterError, new_rulebook, write_starter
    if not folder.is_dir():
        return _usage(f"{folder} is not a folder")
    try:
        starter = new_rulebook(folder, args.kind, args.name, args.extends, args.title)
    except StarterError as exc:
        return _usage(str(exc))
    except RulesError as exc:   # pyproject.toml's settings, or the project's rulebooks beside the starter
        print(_render(exc.diagnostics, exc.sources), file=sys.stderr)
        print("nothing was written", file=sys.stderr)
        return EXIT_RULES
    if starter.diagnostics:     # the series it extends has errors
        print(_render(starter.diagnostics, starter.sources), file=sys.stderr)
        print("nothing was written", file=sys.stderr)
        return EXIT_RULES
    try:
        written = write_starter(folder, starter)
    except OSError as exc:
        return _usage(f"cannot write the starter: {exc.strerror or exc}")
    for rel in written:
        print(f"wrote {visible(rel)}")
    print("next:")
    for number, step in enumerate(starter.next_steps, 1):
        print(f"  {number}. {visible(step)}")
    return EXIT_OK


@contextlib.contextmanager
def _progress() -> Iterator[Callable[[str], Callable[[int, int], None] | None]]:
    """On a terminal, a progress bar (rich) for a step that makes people wait: `progress(what)` gives the
    step's `(done, total)` callback.  Elsewhere (CI, a pipe) it shows nothing and gives None."""
    if not sys.stderr.isatty():
        yield lambda what: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=Console(stderr=True), transient=True) as bar:
        def step(what: str) -> Callable[[int, int], None]:
            task = bar.add_task(what, total=None)

            def advance(done: int, total: int) -> None:
                bar.update(task, completed=done, total=total)
            return advance
        yield step


def compiled(compilation: Compilation) -> str:
    """What a build compiled, as its user counts it: the project's own rulebooks, then the library's it
    uses (`1 rulebook compiled (and the library's scs-1.8)`): those have no module or card of this project."""
    own = sum(1 for key in compilation.rulebooks if key not in compilation.library)
    library = sorted(compilation.library)
    used = f" (and the library's {', '.join(library[:-1])}{' and ' if len(library) > 1 else ''}{library[-1]})" \
        if library else ""
    return f"{own} rulebook{'' if own == 1 else 's'} compiled{used}"


def _build(root: Path, check_only: bool, notes: bool = False) -> int:
    from rulesdsl import cache
    from rulesdsl.errors import visible
    from rulesdsl.project.build import add_charts, compile_project
    from rulesdsl.errors import RulesError
    from rulesdsl.project.output import (OutputFolderError, check_output_folder, committed, stale_outputs,
                                         unlisted_outputs, with_manifest, write_outputs)
    from rulesdsl.project.settings import load_config
    cache.discarded.clear()
    cache.refused.clear()
    try:      # before any work: a folder a build may not write is refused, nothing is written
        config = load_config(root)
        check_output_folder(root, config.package, [f.path for f in config.library.folders])
    except OutputFolderError as exc:
        return _usage(str(exc))
    except RulesError as exc:
        print(_render(exc.diagnostics, exc.sources), file=sys.stderr)
        print("nothing was written", file=sys.stderr)
        return EXIT_RULES
    with _progress() as progress:
        compilation = compile_project(root)
        if compilation.ok:
            add_charts(compilation, progress=progress(f"{compiled(compilation)}; cards"))
    _report(compilation, notes)
    if cache.discarded:     # made again, never used: the build is what it would be without a cache
        n = len(cache.discarded)
        print(f"note: {n} damaged cache entr{'y was' if n == 1 else 'ies were'} discarded and made again "
              f"(the cache folder: {visible(str(cache.folder()))})", file=sys.stderr)
    _untrusted_cache_note()
    if not compilation.ok:
        print(f"nothing was written to {compilation.package}/" if compilation.package else "nothing was written",
              file=sys.stderr)
        return EXIT_RULES
    try:    # checked again: the folder may have changed during the compilation
        check_output_folder(root, compilation.package)
        kept = unlisted_outputs(root, compilation.outputs, compilation.package)
        if check_only:
            changed, removed = stale_outputs(root, compilation.outputs, committed_only=True,
                                             package=compilation.package)
        else:
            changed, removed = write_outputs(root, compilation.outputs, compilation.package)
    except OutputFolderError as exc:
        return _usage(str(exc))
    for rel in kept:
        print(f"note: kept {visible(_seen(rel))}: rulesdsl cannot tell it wrote it ({compilation.package}/ has no "
              f"manifest yet, and the file carries no mark of rulesdsl's); remove it yourself if it is stale",
              file=sys.stderr)
    if check_only:
        for rel in changed:
            print(f"out of date: {_seen(rel)}", file=sys.stderr)
        for rel in removed:
            print(f"no longer generated: {_seen(rel)}", file=sys.stderr)
        if changed or removed:
            print(f"{compilation.package}/ is not current: run 'rulesdsl build'", file=sys.stderr)
            return EXIT_RULES
        current = sum(map(committed, with_manifest(compilation.outputs, compilation.package)))
        print(f"{compilation.package}/ is current ({current} files; the PDFs are checked by their inputs' "
              f"fingerprints)")
        return EXIT_OK
    for rel in changed:
        print(f"wrote {_seen(rel)}")
    for rel in removed:
        print(f"removed {_seen(rel)}")
    if not changed and not removed:
        print(f"{compilation.package}/ is up to date ({len(with_manifest(compilation.outputs, compilation.package))} "
              f"files)")
    return EXIT_OK
