"""Who picks a retreat's path (issue 25): `retreat.chosen_by = owner | enemy`.

In many classic titles the winner picks the loser's retreat path.  The rules still bind the path (away from
the combat, a required avoidance of enemy ZOCs, the kind of hex); among the paths they leave open, the enemy
takes the one that costs the owner the most steps, and the loss the engine states is that path's.  The owner's
own preferences (an optional avoidance of enemy ZOCs) give way."""
from __future__ import annotations

import dataclasses
from typing import Any

from generated import scs_1_8
from rulesdsl.runtime.engine import RulesEngine
from rulesdsl.runtime.hexmap import Hex, HexMap
from rulesdsl.runtime.ruleset import RuleSet
from rulesdsl.runtime.situation import Counter, Situation

H = Hex.parse


def _engine(**values: Any) -> RulesEngine:
    parameters = dict(scs_1_8.PARAMETERS)
    template = next(iter(parameters.values()))
    for key, value in values.items():
        name = key.replace("__", ".")
        parameters[name] = dataclasses.replace(parameters.get(name, template), name=name, value=value, rule="test")
    return RulesEngine(RuleSet("scs-1.8", parameters, scs_1_8.TERRAIN, scs_1_8.TABLES, scs_1_8.RULES))


def _situation() -> Situation:
    units = (Counter("d", "axis", H("5.05"), attack=2, defense=2, movement=5),
             Counter("a", "allies", H("5.04"), attack=2, defense=2, movement=5),
             Counter("z", "allies", H("4.08"), attack=2, defense=2, movement=5))
    return Situation(HexMap.rectangle(9, 9), default_terrain=("open",), units=units, phasing="allies")


def test_the_owner_avoids_enemy_zocs_where_the_enemy_takes_the_costliest_path():
    situation = _situation()
    ezoc = _engine().enemy_zoc(situation, "axis")
    owner = _engine().retreat(situation, ["d"], 2, attackers=["a"])
    assert not any(h in ezoc for h in owner.paths[0]) and owner.loss == 0
    said = _engine(retreat__chosen_by="owner").retreat(situation, ["d"], 2, attackers=["a"])
    assert said.paths == owner.paths and said.loss == 0
    enemy = _engine(retreat__chosen_by="enemy").retreat(situation, ["d"], 2, attackers=["a"])
    assert set(enemy.paths) == set(owner.paths)                     # the same paths are open ...
    assert any(h in ezoc for h in enemy.paths[0]) and enemy.loss == 2   # ... the enemy takes two ZOC hexes
    text = [str(s) for s in enemy.steps]
    assert any("the enemy picks the path: of those the rules leave open, the one that costs the most steps" in s
               for s in text), text
    assert not any("the owner may avoid enemy ZOCs" in s for s in text)


def test_a_rule_that_binds_the_path_binds_the_enemy_too():
    situation = _situation()
    required = _engine(retreat__chosen_by="enemy", retreat__ezoc_avoidance_optional=False)
    answer = required.retreat(situation, ["d"], 2, attackers=["a"])
    ezoc = required.enemy_zoc(situation, "axis")
    assert answer.paths and not any(h in ezoc for p in answer.paths for h in p) and answer.loss == 0


GAME = '''game pursuit "Pursuit (a retreat test title)" version "1.0" extends scs-1.8

rule G4.0 "Stacking" {
  summary "Up to four steps may stack in a hex."
  stacking.limit = 4 steps
}

rule G9.1 "The winner retreats the loser" {
  summary "The winning player picks the path of each retreat, within the retreat rules."
  retreat.chosen_by = enemy
}

example "The winner picks a path into a ZOC" [G9.1] {
  map 1.01 - 9.09 open
  phasing allies
  unit d axis 2-2-5 at 5.05 steps 3 type infantry
  unit a allies 2-2-5 at 5.04 type infantry
  unit z allies 2-2-5 at 4.08 type infantry
  expect retreat d 2 from a loss 2
}
'''


def test_a_title_sets_it_its_example_proves_it_and_the_card_says_it(project, capsys):
    project.write("rulebooks/pursuit.rules", GAME + 'card {\n  reminders: retreat\n}\n')
    code, _, err = project.run("check", capsys=capsys)
    assert code == 0, err
    project.write("rulebooks/pursuit.rules", GAME.replace("loss 2", "loss 0"))
    code, _, err = project.run("check", capsys=capsys)
    line = GAME.splitlines().index("  expect retreat d 2 from a loss 2") + 1
    assert code == 1 and f"pursuit.rules:{line}:10: error: expected loss 0" in err, err
    project.write("rulebooks/pursuit.rules", GAME + 'card {\n  reminders: retreat\n}\n')
    from rulesdsl.cards.charts import card, render_html
    from rulesdsl.project.build import compile_project
    compiled = compile_project(project.root, examples=False, generate=False)
    english = render_html(card(compiled.resolved["pursuit"], "en", compiled.labels)[0])
    assert ("<td>The player who picks a retreat&#39;s path among those the rules leave open</td>"
            '<td class="value short">enemy</td>') in english
    french = render_html(card(compiled.resolved["pursuit"], "fr", compiled.labels)[0])
    assert ("<td>Joueur qui choisit le chemin d&#39;une retraite parmi ceux que les règles permettent</td>"
            '<td class="value short">l&#39;ennemi</td>') in french


def test_a_chooser_the_engine_does_not_know_is_an_error_at_its_value(project, capsys):
    project.write("rulebooks/pursuit.rules", GAME.replace("retreat.chosen_by = enemy", "retreat.chosen_by = winner"))
    code, _, err = project.run("check", capsys=capsys)
    line = GAME.splitlines().index("  retreat.chosen_by = enemy") + 1
    assert code == 1 and f"pursuit.rules:{line}:23: error:" in err and "owner" in err and "enemy" in err, err
