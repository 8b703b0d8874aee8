"""Engagement: who takes part in a combat, whose terrain it reads, and who suffers its result.

`engage` answers the questions a combat asks before and after the dice that are not arithmetic:
- which defenders fight (a hex's units defend together, or the owner names them);
- which units add nothing but share the result: units that retreated into the hex before it was attacked,
  units of a combat hex that take no part, units over the stacking limit;
- which units the result cannot touch: in an overrun, the units that share the overrunners' hex;
- which hex's terrain a combat against several hexes reads;
- given the result read from the table: the retreats that are carried out, and the units it destroys;
  given what an exchange costs (a Resolution's `exchange`), the attacking units one choice meeting it loses.

`as_combat` turns an engagement into the `Combat` a generated module's CombatEngine resolves.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, TypeVar

from . import stacking
from .answers import Engagement
from .combat import AttackingHex, Combat, Unit
from .hexmap import Hex
from .notation import Result
from .ruleset import RuleSet, Step
from .situation import Counter, Situation

if TYPE_CHECKING:
    from .combat import Assessment, Exchange

__all__ = ["as_combat", "engage"]

Judge = Callable[[Combat], "Assessment"]
T = TypeVar("T")


def engage(rules: RuleSet, situation: Situation, attackers: Sequence[str], targets: Sequence[Hex], *,
           defenders: Sequence[str] | None = None, arrived: Sequence[str] = (), overrun: bool = False,
           result: Result | None = None, judge: Judge | None = None,
           exchange: Exchange | None = None) -> Engagement:
    """The engagement of `attackers` against the enemy units in `targets`.

    defenders: the units the defending owner names (None: every enemy unit in the targets); arrived: units
    that retreated into a target hex this phase before it was attacked; overrun: the combat is an overrun;
    result: the result read from the table, to say what of it is carried out; judge: assesses a combat (a
    generated module's `ENGINE.assess`), to find the terrain best for the defender in a multi-hex attack;
    exchange: what an exchange result costs the attacker (the `Resolution.exchange` of this combat), to name
    the attacking units its choice loses.
    """
    steps: list[Step] = []
    reasons: list[str] = []
    attacking = [situation.unit(name) for name in attackers]
    if not attacking:
        raise ValueError("an engagement needs at least one attacking unit")
    if not targets:
        raise ValueError("an engagement needs at least one target hex")
    side = attacking[0].side
    present = [u for hex in targets for u in situation.units_at(hex) if u.side != side]
    steps.append(rules.cite_rule_of("combat.stack_defends_together",
                                    f"{', '.join(str(h) for h in targets)} hold{'s' if len(targets) == 1 else ''} "
                                    f"{_names(present) or 'no enemy unit'}"))
    if not present:
        reasons.append("there is no enemy unit to attack")

    fighting, sharing, spared = _defenders(rules, present, defenders, arrived, steps, reasons)
    attack_sharing, attack_spared = _bystanders(rules, situation, attacking, overrun, steps)
    sharing += attack_sharing
    spared += attack_spared

    # units over the stacking limit, in the target hexes and the attacking hexes
    lost_if_adverse: list[str] = []
    over = _over_limit(rules, situation, [*targets, *_unique([u.hex for u in attacking])])
    if over:
        fights = rules.value("stacking.overstacked_units_fight")
        if fights is False:
            moved = [n for n in over if n in fighting or n in (a.name for a in attacking)]
            if moved:
                steps.append(rules.cite("stacking.overstacked_units_fight",
                                        f"{', '.join(moved)}, over the stacking limit, add nothing to the combat"))
                fighting = [n for n in fighting if n not in moved]
                sharing += [n for n in moved if n not in sharing]
        if rules.flag("stacking.overstacked_lost_on_adverse_result"):
            lost_if_adverse = list(over)
            steps.append(rules.cite("stacking.overstacked_lost_on_adverse_result",
                                    f"{', '.join(over)}, over the stacking limit, are destroyed by any adverse result"))
        else:
            steps.append(rules.cite("stacking.overstacked_lost_on_adverse_result",
                                    f"{', '.join(over)} are over the stacking limit; no rule destroys them for it"))

    terrain_hex = _terrain_hex(rules, situation, attacking, fighting, targets, steps, reasons, judge)
    attacker_retreat = defender_retreat = 0
    destroyed: list[str] = []
    exchanged: list[str] = []
    if result is not None:
        attacker_side = {u.name for u in situation.units if u.side == side}
        attacker_retreat, defender_retreat, destroyed = _aftermath(rules, result, overrun, lost_if_adverse,
                                                                   attacker_side, steps)
        if result.exchange and exchange is not None and exchange.loser == "attacker":
            # the weaker attacker loses every unit; the defender pays at least its factors
            lost = [u.name for u in attacking if u.name not in sharing]
            destroyed = [*destroyed, *(name for name in lost if name not in destroyed)]
            exchanged = _exchanged(rules, situation, list(fighting), exchange, steps, paying="defender")
        elif result.exchange and exchange is not None:
            exchanged = _exchanged(rules, situation, [u.name for u in attacking if u.name not in sharing],
                                   exchange, steps)
    return Engagement(
        attackers=tuple(u.name for u in attacking if u.name not in sharing), defenders=tuple(fighting),
        terrain_hex=terrain_hex, sharing=tuple(sharing), spared=tuple(spared),
        lost_if_adverse=tuple(lost_if_adverse), allowed=not reasons, reasons=tuple(reasons), steps=tuple(steps),
        attacker_retreat=attacker_retreat, defender_retreat=defender_retreat, destroyed=tuple(destroyed),
        exchanged=tuple(exchanged))


# ---- before the dice --------------------------------------------------------------------------------------
def _defenders(rules: RuleSet, present: list[Counter], named: Sequence[str] | None, arrived: Sequence[str],
               steps: list[Step], reasons: list[str]) -> tuple[list[str], list[str], list[str]]:
    """(the defenders whose strength counts, the units that only share the result, the units it spares)."""
    names = [u.name for u in present]
    fighting, sharing, spared = list(names), [], []
    together = rules.value("combat.stack_defends_together")
    if named is not None:
        unknown = [n for n in named if n not in names]
        if unknown:
            reasons.append(f"{', '.join(unknown)} {'is' if len(unknown) == 1 else 'are'} not in a target hex")
        left_out = [n for n in names if n not in named]
        if left_out and together is True:
            steps.append(rules.cite("combat.stack_defends_together",
                                    "every unit in a defending hex defends, with one Defense Strength"))
            reasons.append(f"{', '.join(left_out)} may not be held out: the hex's units defend together")
        elif left_out:
            steps.append(rules.cite("combat.stack_defends_together",
                                    f"the owner names the defenders; {', '.join(left_out)} take no part"))
            fighting = [n for n in names if n in named]
            if rules.flag("combat.non_participants_share_results"):
                sharing += left_out
                steps.append(rules.cite("combat.non_participants_share_results",
                                        f"{', '.join(left_out)} take no part but share the result"))
            else:
                spared += left_out
                steps.append(rules.cite("combat.non_participants_share_results",
                                        f"{', '.join(left_out)} take no part and the result leaves them alone"))
    elif together is True:
        steps.append(rules.cite("combat.stack_defends_together",
                                f"every unit in a defending hex defends: {', '.join(names) or 'none'}"))
    came = [n for n in arrived if n in fighting]
    if came:
        shares = rules.value("combat.arrivals_share_results")
        if shares is True:
            steps.append(rules.cite("combat.arrivals_share_results",
                                    f"{', '.join(came)} retreated in before the attack: they add nothing but share "
                                    f"its result"))
            fighting = [n for n in fighting if n not in came]
            sharing += came
        elif shares is False:
            steps.append(rules.cite("combat.arrivals_share_results",
                                    f"{', '.join(came)} retreated in before the attack: it leaves them alone"))
            fighting = [n for n in fighting if n not in came]
            spared += came
        else:
            steps.append(rules.cite("combat.arrivals_share_results",
                                    f"{', '.join(came)} retreated in before the attack; no rule sets them apart"))
    return fighting, sharing, spared


def _bystanders(rules: RuleSet, situation: Situation, attacking: list[Counter], overrun: bool,
                steps: list[Step]) -> tuple[list[str], list[str]]:
    """The attacker's units in the attacking hexes that do not attack: (sharing the result, spared)."""
    names = {u.name for u in attacking}
    idle = [u.name for hex in _unique([u.hex for u in attacking]) for u in situation.units_at(hex)
            if u.side == attacking[0].side and u.name not in names]
    if not idle:
        return [], []
    if overrun and rules.flag("overrun.results_affect_only_participants"):
        steps.append(rules.cite("overrun.results_affect_only_participants",
                                f"an overrun's result touches only the overrunning units, not {', '.join(idle)}"))
        return [], idle
    if rules.flag("combat.non_participants_share_results"):
        steps.append(rules.cite("combat.non_participants_share_results",
                                f"{', '.join(idle)} do not attack but share the result"))
        return idle, []
    steps.append(rules.cite("combat.non_participants_share_results",
                            f"{', '.join(idle)} do not attack; the result leaves them alone"))
    return [], idle


def _over_limit(rules: RuleSet, situation: Situation, hexes: Sequence[Hex]) -> list[str]:
    """The units over the stacking limit in `hexes` (bottom of each stack first), whoever's they are."""
    over: list[str] = []
    for hex in hexes:
        for side in _unique([u.side for u in situation.units_at(hex)]):
            units = [u for u in situation.units_at(hex) if u.side == side]
            over += stacking.over_limit(rules, units)
    return over


def _terrain_hex(rules: RuleSet, situation: Situation, attacking: list[Counter], fighting: list[str],
                 targets: Sequence[Hex], steps: list[Step], reasons: list[str], judge: Judge | None) -> Hex:
    if len(targets) == 1:
        return targets[0]
    best = rules.value("combat.defender_best_terrain")
    if best is not True:
        steps.append(rules.cite("combat.defender_best_terrain",
                                "the rules do not say which hex's terrain a combat against several hexes reads"))
        reasons.append("an attack on several hexes needs a rule saying which hex's terrain counts")
        return targets[0]
    if judge is None:
        reasons.append("finding the terrain best for the defender needs the rulebook's combat rules")
        return targets[0]
    ranked: list[tuple[tuple[int, Fraction], Hex]] = []
    for hex in targets:
        assessment = judge(as_combat(situation, [a.name for a in attacking], fighting, hex))
        ranked.append((_for_the_attacker(assessment), hex))
        place = f"{assessment.column or 'below'} the table" if assessment.position is None else \
            f"column {assessment.column}, {_ordinal(assessment.position + 1)} from the left of its line"
        steps.append(rules.cite("combat.defender_best_terrain",
                                f"against the terrain of {hex} ({'/'.join(situation.terrain_at(hex))}): odds "
                                f"{assessment.odds}, {place}"))
    chosen = min(ranked, key=_first)[1]
    steps.append(rules.cite("combat.defender_best_terrain",
                            f"the combat reads {chosen}'s terrain, the best for the defender"))
    return chosen


def _for_the_attacker(assessment: Assessment) -> tuple[int, Fraction]:
    """How good an assessment is for the attacker: the column's place from the left on its terrain line
    (below the table is worst, above it best), then the ratio of strengths."""
    place = (10 ** 6 if assessment.column else -1) if assessment.position is None else assessment.position
    ratio = Fraction(assessment.attack) / assessment.defense if assessment.defense else Fraction(assessment.attack)
    return place, ratio


# ---- after the dice ---------------------------------------------------------------------------------------
def _aftermath(rules: RuleSet, result: Result, overrun: bool, lost_if_adverse: list[str], attackers: set[str],
               steps: list[Step]) -> tuple[int, int, list[str]]:
    """(the attacker's retreat carried out, the defender's, the units destroyed beyond the step losses);
    `attackers`: every unit of the attacking side, so that a result is judged adverse by the side it hurts."""
    attacker_retreat, defender_retreat = result.attacker_retreat, result.defender_retreat
    defender_untouched = not result.defender_steps and not defender_retreat and not result.defender_eliminated
    if result.attacker_steps and defender_untouched and not attacker_retreat:
        if rules.flag("retreat.attacker_retreats_on_empty_result"):
            attacker_retreat = 1
            steps.append(rules.cite("retreat.attacker_retreats_on_empty_result",
                                    "the attacker lost steps and the defender nothing: the attackers retreat 1 hex"))
    if overrun and attacker_retreat:    # the table's retreat, or the one an empty result gives
        if rules.value("overrun.attacker_retreats_apply") is False:
            steps.append(rules.cite("overrun.attacker_retreats_apply",
                                    f"the overrunning units do not carry out their retreat of {attacker_retreat}"))
            attacker_retreat = 0
        else:
            steps.append(rules.cite("overrun.attacker_retreats_apply",
                                    f"the overrunning units retreat {attacker_retreat}"))
    destroyed: list[str] = []
    if lost_if_adverse:
        attacker_hurt = bool(result.attacker_steps or attacker_retreat or result.attacker_eliminated)
        defender_hurt = not defender_untouched
        for name in lost_if_adverse:
            hurt = attacker_hurt if name in attackers else defender_hurt
            if hurt:
                destroyed.append(name)
        if destroyed:
            steps.append(rules.cite("stacking.overstacked_lost_on_adverse_result",
                                    f"{result.text} is adverse to {', '.join(destroyed)}: destroyed"))
    return attacker_retreat, defender_retreat, destroyed


def _exchanged(rules: RuleSet, situation: Situation, attackers: list[str], exchange: Exchange,
               steps: list[Step], *, paying: str = "attacker") -> list[str]:
    """The paying side's units the exchange's choice loses, by name, with a step saying what they total: each
    unit of its choice is the first of them not yet named whose combat unit it is, in the order `as_combat`
    lists them (units alike are alike to the exchange, so any one of them is the same choice).  `paying`: the
    attacker, or the defender where the weaker attacker lost everything (`attackers` then names the
    defenders)."""
    order = [name for names in _by_hex(situation, attackers).values() for name in names]
    left = {name: _unit(situation.unit(name)) for name in order}
    named: list[str] = []
    for unit in exchange.chosen:
        name = next((n for n in order if n in left and left[n] == unit), None)
        if name is not None:
            named.append(name)
            del left[name]
    factor = "attack factor" if paying == "attacker" else "defense factor"
    measure = {"steps": "step", "units": "unit", "factors": factor}[exchange.measure]
    least = f"{exchange.loss} {measure}{'s' * (exchange.loss != 1)}"
    if exchange.short:
        text = f"the exchange costs the {paying} at least {least}; the units that may pay it fall short, so it " \
               f"loses every one: {', '.join(named) or 'none'}"
    elif named:
        text = f"the exchange costs the {paying} at least {least}: it loses {', '.join(named)} " \
               f"({exchange.lost}), one choice that meets it"
    else:
        text = f"the exchange costs the {paying} at least {least}, of the units that " \
               f"{'attacked' if paying == 'attacker' else 'defended'}: it chooses which"
    steps.append(rules.cite_rule_of("combat.exchange_measure", text))
    return named


# ---- to the CombatEngine ------------------------------------------------------------------------------------
def as_combat(situation: Situation, attackers: Sequence[str], defenders: Sequence[str], terrain_hex: Hex, *,
              overrun: bool = False, situations: Iterable[str] = (), forced: bool = False) -> Combat:
    """The `Combat` a generated module resolves: attackers grouped by hex (with the hexsides they attack
    across), the defenders, the terrain of `terrain_hex`, the sides (for a TEC cell of one side), the
    combat situations the players declare (`situations`), and whether the rules require the attack
    (`forced`)."""
    by_hex = {hex: [situation.unit(n) for n in names] for hex, names in _by_hex(situation, attackers).items()}
    return Combat(
        attacking_hexes=tuple(AttackingHex(units=tuple(_unit(u) for u in units),
                                           terrain=situation.terrain_at(hex)[0] if situation.terrain_at(hex) else "",
                                           hexsides=situation.hexside_features(hex, terrain_hex), name=str(hex))
                              for hex, units in by_hex.items()),
        defenders=tuple(_unit(situation.unit(n)) for n in defenders),
        defender_terrain=situation.terrain_at(terrain_hex), overrun=overrun, situations=frozenset(situations),
        attacker_side=situation.unit(attackers[0]).side if attackers else "",
        defender_side=situation.unit(defenders[0]).side if defenders else "", forced=forced)


def _by_hex(situation: Situation, attackers: Sequence[str]) -> dict[Hex, list[str]]:
    """The attackers grouped by the hex they attack from, in the order of the first of each hex."""
    by_hex: dict[Hex, list[str]] = {}
    for name in attackers:
        by_hex.setdefault(situation.unit(name).hex, []).append(name)
    return by_hex


def _unit(counter: Counter) -> Unit:
    return Unit(type=counter.type, attack=counter.attack, defense=counter.defense, steps=counter.steps,
                states=counter.states)


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _first(pair: tuple[tuple[int, Fraction], Hex]) -> tuple[int, Fraction]:
    return pair[0]


def _unique(items: list[T]) -> list[T]:
    """`items` in order, each once."""
    seen: list[T] = []
    for item in items:
        if item not in seen:
            seen.append(item)
    return seen


def _names(units: Sequence[Counter]) -> str:
    return ", ".join(str(u) for u in units)
