"""`rulesdsl completion bash|zsh|fish`: each script is read by its real shell, and bash's and fish's are driven
as the shell drives them on Tab, in a folder of rulebooks and other files."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rulesdsl import cli
from rulesdsl.editor import completion

SUBCOMMANDS = {"check", "chart", "coverage", "fmt", "diff", "new", "lsp", "docs", "reference", "explain", "build",
               "watch", "completion"}


def _script(shell: str, capsys: pytest.CaptureFixture[str]) -> str:
    assert cli.main(["completion", shell]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return out


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A title's folder: rulebooks, a text file beside them, and a folder holding no rulebook."""
    (tmp_path / "rulebooks" / "games").mkdir(parents=True)
    (tmp_path / "rulebooks" / "games" / "bocage.rules").write_text("", encoding="utf-8")
    (tmp_path / "rulebooks" / "games" / "notes.txt").write_text("", encoding="utf-8")
    (tmp_path / "top.rules").write_text("", encoding="utf-8")
    (tmp_path / "top.txt").write_text("", encoding="utf-8")
    return tmp_path


def _need(shell: str) -> str:
    found = shutil.which(shell)
    if found is None:
        pytest.skip(f"{shell} is not installed (apt-get install {shell}): its script is not checked here")
    return found


BASH_DRIVER = r'''
source "$1"
read -ra COMP_WORDS <<< "$2"
[[ "$2" == *" " ]] && COMP_WORDS+=("")
COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMP_LINE="$2"; COMP_POINT=${#2}
complete -p rulesdsl >/dev/null || exit 9
_shtab_rulesdsl rulesdsl "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
printf '%s\n' "${COMPREPLY[@]}"
'''


def _bash_complete(script: Path, line: str, cwd: Path) -> list[str]:
    """What bash offers on Tab at the end of `line`: the script sourced, COMP_WORDS and COMP_CWORD set as bash
    sets them, the function it registered for rulesdsl called, COMPREPLY read."""
    done = subprocess.run([_need("bash"), "--norc", "--noprofile", "-c", BASH_DRIVER, "driver", str(script), line],
                          cwd=cwd, capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    return [word for word in done.stdout.splitlines() if word]


def test_bash_completes_subcommands_options_choices_and_rulebook_files(capsys, folder, tmp_path_factory):
    script = tmp_path_factory.mktemp("bash") / "rulesdsl.bash"
    script.write_text(_script("bash", capsys), encoding="utf-8")
    syntax = subprocess.run([_need("bash"), "-n", str(script)], capture_output=True, text=True, timeout=30)
    assert (syntax.returncode, syntax.stderr) == (0, "")
    complete = lambda line: _bash_complete(script, line, folder)   # noqa: E731
    assert set(complete("rulesdsl ")) == SUBCOMMANDS
    assert set(complete("rulesdsl ch")) == {"check", "chart"}
    assert set(complete("rulesdsl check --")) == {"--help", "--notes", "--format", "--cards", "--project"}
    assert complete("rulesdsl check --format ") == ["text", "json", "github"]
    assert complete("rulesdsl chart --lang ") == ["en", "fr"]
    assert complete("rulesdsl diff --paper ") == ["a4", "letter", "a3", "tabloid"]
    assert complete("rulesdsl completion ") == ["bash", "zsh", "fish"]
    # a rulebook: *.rules files and folders to reach them; a text file is not offered
    assert sorted(complete("rulesdsl chart ")) == ["rulebooks", "top.rules"]
    assert complete("rulesdsl check top.rules rulebooks/games/") == ["rulebooks/games/bocage.rules"]
    assert complete("rulesdsl diff top.rules rulebooks/games/") == ["rulebooks/games/bocage.rules"]
    assert complete("rulesdsl fmt --check rulebooks/games/") == ["rulebooks/games/bocage.rules"]
    # --out names any file
    assert sorted(complete("rulesdsl chart top.rules --out top")) == ["top.rules", "top.txt"]


def test_fish_completes_subcommands_choices_and_rulebook_files(capsys, folder, tmp_path_factory):
    fish = _need("fish")
    script = tmp_path_factory.mktemp("fish") / "rulesdsl.fish"
    script.write_text(_script("fish", capsys), encoding="utf-8")
    syntax = subprocess.run([fish, "--no-config", "-n", str(script)], capture_output=True, text=True, timeout=30)
    assert (syntax.returncode, syntax.stderr) == (0, "")

    def complete(line: str) -> list[str]:
        done = subprocess.run([fish, "--no-config", "-c", "source $argv[1]; complete -C $argv[2]", str(script), line],
                              cwd=folder, capture_output=True, text=True, timeout=30)
        assert done.returncode == 0, done.stderr
        return [entry.split("\t")[0] for entry in done.stdout.splitlines()]
    assert set(complete("rulesdsl ")) == SUBCOMMANDS
    assert set(complete("rulesdsl ch")) == {"check", "chart"}
    assert complete("rulesdsl chart --format ") == ["html", "pdf"]
    assert complete("rulesdsl diff --paper ") == ["a4", "letter", "a3", "tabloid"]
    assert sorted(complete("rulesdsl chart ")) == ["rulebooks/", "top.rules"]
    assert complete("rulesdsl check top.rules rulebooks/games/") == ["rulebooks/games/bocage.rules"]


def test_zsh_reads_its_script(capsys, tmp_path):
    zsh = _need("zsh")
    text = _script("zsh", capsys)
    assert text.startswith("#compdef rulesdsl")
    assert "_files -g '(*.rules)'" in text          # rulebooks complete as *.rules files
    assert "(html pdf)" in text and "(a4 letter a3 tabloid)" in text
    script = tmp_path / "_rulesdsl"
    script.write_text(text, encoding="utf-8")
    syntax = subprocess.run([zsh, "-n", str(script)], capture_output=True, text=True, timeout=30)
    assert (syntax.returncode, syntax.stderr) == (0, "")


def test_every_rulebook_argument_completes_as_rulebook_files():
    """What an argument names is marked where the parser declares it; a new command's RULEBOOK must be too."""
    arguments = list(completion.actions(cli._parser()))
    positional = {(command, action.metavar): completion.marked(action) for command, action in arguments
                  if not action.option_strings and action.metavar in ("RULEBOOK", "PATH", "OLD", "NEW")}
    assert positional == {("check", "PATH"): "rulebook", ("chart", "RULEBOOK"): "rulebook",
                          ("coverage", "RULEBOOK"): "rulebook", ("fmt", "PATH"): "rulebook",
                          ("diff", "OLD"): "rulebook", ("diff", "NEW"): "rulebook", ("explain", "RULEBOOK"): "rulebook"}
    options = {(command, action.option_strings[-1]): completion.marked(action) for command, action in arguments
               if action.option_strings}
    assert options[("", "--project")] == "directory"
    assert options[("chart", "--out")] == options[("diff", "--out")] == options[("reference", "--out")] == "file"
    assert options[("chart", "--format")] is None


def test_the_command_offers_the_shells_the_module_makes():
    choices = next(action.choices for command, action in completion.actions(cli._parser())
                   if command == "completion" and action.dest == "shell")
    assert tuple(choices) == completion.SHELLS


def test_a_bad_mark_is_refused():
    action = cli._parser()._actions[0]
    setattr(action, completion.MARK, "rulebooks")
    with pytest.raises(ValueError, match="not one of rulebook, file, directory"):
        completion.marked(action)


def test_an_unknown_shell_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exited:
        cli.main(["completion", "tcsh"])
    assert exited.value.code == 2
    assert "invalid choice: 'tcsh'" in capsys.readouterr().err


def test_without_shtab_the_command_says_what_to_install(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "shtab", None)      # `import shtab` fails as when it is not installed
    assert cli.main(["completion", "bash"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("rulesdsl: error: the completion scripts need shtab, which is not installed")
    assert "pip install 'shtab>=1.13,<2'" in err


def test_no_other_command_imports_shtab_at_start_up():
    """shtab costs start-up time: --version, --help and a usage error never import it or the completion module."""
    probe = ("import sys\nfrom rulesdsl.cli import main\n"
             "for argv in (['--version'], ['--help'], ['completion', '--help'], ['frob']):\n"
             "    try:\n        main(argv)\n    except SystemExit:\n        pass\n"
             "print(sorted(m for m in ('shtab', 'rulesdsl.editor.completion') if m in sys.modules))\n"
             "main(['completion', 'bash'])\n"
             "print(sorted(m for m in ('shtab', 'rulesdsl.editor.completion') if m in sys.modules))\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    lines = done.stdout.strip().splitlines()
    assert lines[-1] == "['rulesdsl.editor.completion', 'shtab']"     # the probe can see an import
    assert next(line for line in lines if line.startswith("[")) == "[]"
