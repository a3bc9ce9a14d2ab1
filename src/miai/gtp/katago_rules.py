"""miai :class:`~miai.rules.Rules` <-> KataGo's rules, for ``kata-get-rules``, ``kata-set-rules``,
``kata-set-rule`` and ``kgs-rules``.

KataGo describes a ruleset with seven fields (its GTP extensions and ``cpp/game/rules.cpp``)::

    {"friendlyPassOk":true,"hasButton":false,"ko":"POSITIONAL","scoring":"AREA",
     "suicide":false,"tax":"NONE","whiteHandicapBonus":"N"}

and prints them as compact JSON with sorted keys, without komi (komi has its own GTP
command). The mapping to miai's fields:

============================  =======================================================
KataGo                        miai
============================  =======================================================
``ko`` SIMPLE / POSITIONAL /  ``ko`` simple / positional / situational (KataGo's
SITUATIONAL                   SPIGHT is refused)
``scoring`` AREA / TERRITORY  ``scoring`` area / territory
``tax`` NONE / SEKI           ``seki_points`` True / False (``ALL`` is refused)
``suicide`` (multi-stone)     ``suicide``
``whiteHandicapBonus``        ``handicap_bonus`` 0 / N / N-1
``hasButton``                 always false (``true`` is refused)
``friendlyPassOk``            area scoring: ``remove_dead_stones`` (Tromp-Taylor and
                              miai's ``simple`` count stones as they stand, so a pass
                              before capturing dead stones is not "friendly"); always
                              false under territory scoring, as in KataGo's presets
============================  =======================================================

Fields KataGo does not have are kept from the current rules: ``komi`` (KataGo's
``kata-set-rules`` leaves komi alone too) and ``white_wins_ties``. ``void_on_repetition``
comes from the miai preset when a preset is named, and otherwise follows the
Japanese/Korean presets: on for simple ko with territory scoring, off elsewhere.

Preset names are miai's (docs/RULES.md §8), plus KataGo's other spellings. Note one
deliberate difference: KataGo's ``chinese`` uses simple ko, while miai's ``chinese``
preset is positional superko as the written Chinese rules say; it is therefore the same
as KataGo's ``chinese-ogs`` / ``chinese-kgs``, which are accepted as synonyms.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from miai.errors import RulesError
from miai.rules import PRESETS, HandicapBonus, KoRule, Rules, Scoring

KATAGO_FIELDS = ("friendlyPassOk", "hasButton", "ko", "scoring", "suicide", "tax", "whiteHandicapBonus")
"""The keys of ``kata-get-rules``, in the order KataGo prints them (sorted)."""

KATA_SET_RULE_KEYS = (
    "ko",
    "scoring",
    "score",
    "tax",
    "suicide",
    "multiStoneSuicideLegal",
    "hasButton",
    "whiteHandicapBonus",
    "friendlyPassOk",
)
"""Keys ``kata-set-rule`` understands (``score`` and ``multiStoneSuicideLegal`` are aliases)."""

KGS_RULES = {"japanese": "japanese", "chinese": "chinese", "aga": "aga", "new_zealand": "new-zealand"}
"""kgsGtp's rule names (``kgs-rules``) -> miai presets."""

# KataGo's preset names (rules.cpp parseRulesHelper) that are not miai's own names.
_KATAGO_NAMES: dict[str, str] = {
    "chinese-ogs": "chinese",
    "chinese-kgs": "chinese",
    "chineseogs": "chinese",
    "chinesekgs": "chinese",
    "bga": "aga",
    "french": "aga",
}
_UNSUPPORTED_NAMES: dict[str, str] = {
    "stone-scoring": "tax ALL (stone scoring)",
    "stonescoring": "tax ALL (stone scoring)",
    "ancient-area": "tax ALL (stone scoring)",
    "ancientarea": "tax ALL (stone scoring)",
    "ancient-territory": "tax ALL (group tax)",
    "ancientterritory": "tax ALL (group tax)",
    "aga-button": "hasButton (button go)",
    "agabutton": "hasButton (button go)",
}

_KO = {"SIMPLE": KoRule.SIMPLE, "POSITIONAL": KoRule.POSITIONAL, "SITUATIONAL": KoRule.SITUATIONAL}
_SCORING = {"AREA": Scoring.AREA, "TERRITORY": Scoring.TERRITORY}
_BONUS = {"0": HandicapBonus.NONE, "N": HandicapBonus.N, "N-1": HandicapBonus.N_MINUS_1}
_TRUE = {"TRUE", "1", "YES", "ON"}
_FALSE = {"FALSE", "0", "NO", "OFF"}


# ---------------------------------------------------------------------- miai -> KataGo
def to_katago(rules: Rules) -> dict[str, Any]:
    """The KataGo dictionary of ``rules`` (komi and the tie rule are not part of it)."""
    return {
        "friendlyPassOk": bool(rules.remove_dead_stones) if rules.scoring is Scoring.AREA else False,
        "hasButton": False,
        "ko": rules.ko.value.upper(),
        "scoring": rules.scoring.value.upper(),
        "suicide": rules.suicide,
        "tax": "NONE" if rules.seki_points else "SEKI",
        "whiteHandicapBonus": rules.handicap_bonus.value,
    }


def to_katago_json(rules: Rules) -> str:
    """``kata-get-rules``: compact JSON with sorted keys, byte for byte as KataGo prints it."""
    return json.dumps(to_katago(rules), sort_keys=True, separators=(",", ":"))


# ---------------------------------------------------------------------- KataGo -> miai
def from_katago(text: str, current: Rules) -> Rules:
    """``kata-set-rules``: a preset name or a JSON dictionary, applied over ``current``.

    Komi and the tie rule stay those of ``current``. A miai text form with an explicit
    komi (``japanese komi=0.5``) is also understood, and then sets komi.
    Raises :class:`RulesError` for anything not understood or not supported.
    """
    spec = text.strip()
    if not spec:
        raise RulesError("expected a ruleset name or a JSON dictionary")
    if spec.startswith("{"):
        return _from_json(spec, current)
    return _from_name(spec, current)


def set_katago_rule(current: Rules, key: str, value: str) -> Rules:
    """``kata-set-rule KEY VALUE``: change one KataGo field of ``current``, keep the others."""
    key = key.strip()
    word = value.strip().upper()
    if key == "ko":
        ko = _enum("ko", word, _KO)
        return current.replace(ko=ko, void_on_repetition=current.void_on_repetition and ko is KoRule.SIMPLE)
    if key in ("scoring", "score"):
        scoring = _enum("scoring", word, _SCORING)
        if scoring is Scoring.TERRITORY:
            return current.replace(scoring=scoring, remove_dead_stones=True)
        return current.replace(scoring=scoring)
    if key == "tax":
        return current.replace(seki_points=_tax(word))
    if key in ("suicide", "multiStoneSuicideLegal"):
        return current.replace(suicide=_bool(key, word))
    if key == "hasButton":
        if _bool(key, word):
            raise RulesError("hasButton true (button go) is not supported by miai")
        return current
    if key == "whiteHandicapBonus":
        return current.replace(handicap_bonus=_enum(key, word, _BONUS))
    if key == "friendlyPassOk":
        ok = _bool(key, word)
        if current.scoring is Scoring.AREA:
            return current.replace(remove_dead_stones=ok)
        return current  # territory scoring always settles dead stones by agreement in miai
    raise RulesError(f"unknown rules option: {_shown(key)}; options are: {', '.join(KATA_SET_RULE_KEYS)}")


def from_kgs(name: str, current: Rules) -> Rules:
    """``kgs-rules``: one of kgsGtp's names (japanese, chinese, aga, new_zealand); komi is kept."""
    key = name.strip().lower()
    if key not in KGS_RULES:
        raise RulesError(f"unknown rules {_shown(name)}; kgs-rules takes one of: {', '.join(KGS_RULES)}")
    return _keep(PRESETS[KGS_RULES[key]], current)


# ---------------------------------------------------------------------- helpers
def _keep(new: Rules, current: Rules) -> Rules:
    """``new`` with the fields KataGo does not describe taken from ``current``."""
    return new.replace(komi=current.komi, white_wins_ties=current.white_wins_ties)


def _from_name(spec: str, current: Rules) -> Rules:
    """A preset name (KataGo's or miai's, any case, ``-``/``_``/space alike), or miai's text
    form: a preset name followed by ``key=value`` overrides."""
    words = spec.split()
    whole = re.sub(r"[\s_]+", "-", spec.strip().lower())
    base = _preset(whole)
    if base is not None:
        return _keep(base, current)
    if len(words) > 1 and all("=" in w for w in words[1:]) and _preset(words[0].lower()) is not None:
        name = re.sub(r"[\s_]+", "-", words[0].lower())
        parsed = Rules.parse(" ".join([_KATAGO_NAMES.get(name, name), *words[1:]]))
        keys = {w.split("=", 1)[0].strip().lower().replace("-", "_") for w in words[1:]}
        return parsed.replace(
            komi=parsed.komi if "komi" in keys else current.komi,
            white_wins_ties=parsed.white_wins_ties if "white_wins_ties" in keys else current.white_wins_ties,
        )
    raise RulesError(f"unknown rules {_shown(spec)}")


def _preset(key: str) -> Rules | None:
    """The miai rules for a normalised preset name, ``None`` if it is not one; raises for
    KataGo presets that need rules miai does not have."""
    if key in _UNSUPPORTED_NAMES:
        raise RulesError(f"rules {key!r} need {_UNSUPPORTED_NAMES[key]}, which miai does not support")
    if key in ("goe", "ing"):
        # KataGo: area, positional superko, suicide allowed, dead stones settled by agreement
        return PRESETS["tromp-taylor"].replace(remove_dead_stones=True)
    try:
        return Rules.preset(_KATAGO_NAMES.get(key, key))
    except RulesError:
        return None


def _from_json(spec: str, current: Rules) -> Rules:
    try:
        data = json.loads(spec)
    except json.JSONDecodeError as exc:
        raise RulesError(f"could not parse rules JSON: {exc.msg} at character {exc.pos}") from None
    except RecursionError:
        raise RulesError("could not parse rules JSON: nested too deeply") from None
    except ValueError as exc:  # e.g. an integer of more than 4,300 digits
        raise RulesError(f"could not parse rules JSON: {exc}") from None
    if not isinstance(data, dict):
        raise RulesError("rules JSON must be a dictionary")
    # KataGo's defaults for missing keys are Tromp-Taylor's
    ko, scoring, suicide, bonus, friendly = KoRule.POSITIONAL, Scoring.AREA, True, HandicapBonus.NONE, False
    seki_points: bool | None = None
    komi = current.komi
    for key, value in data.items():
        if key == "ko":
            ko = _enum(key, _str(key, value), _KO)
        elif key in ("scoring", "score"):
            scoring = _enum(key, _str(key, value), _SCORING)
        elif key == "tax":
            seki_points = _tax(_str(key, value))
        elif key in ("suicide", "multiStoneSuicideLegal"):
            suicide = _json_bool(key, value)
        elif key == "hasButton":
            if _json_bool(key, value):
                raise RulesError("hasButton true (button go) is not supported by miai")
        elif key == "whiteHandicapBonus":
            bonus = _enum(key, _str(key, value), _BONUS)
        elif key == "friendlyPassOk":
            friendly = _json_bool(key, value)
        elif key == "komi":  # a miai extension: KataGo sets komi with the komi command only
            komi = _json_komi(value)
        else:
            raise RulesError(f"unknown rules option: {_shown(key)}")
    if seki_points is None:  # KataGo: territory scoring taxes seki unless told otherwise
        seki_points = scoring is Scoring.AREA
    territory = scoring is Scoring.TERRITORY
    return Rules(
        scoring=scoring,
        ko=ko,
        void_on_repetition=territory and ko is KoRule.SIMPLE,
        suicide=suicide,
        seki_points=seki_points,
        handicap_bonus=bonus,
        komi=komi,
        white_wins_ties=current.white_wins_ties,
        remove_dead_stones=True if territory else friendly,
    )


def _shown(value: object, limit: int = 40) -> str:
    """``repr(value)``, cut short for an error message (a long string keeps its quotes)."""
    if isinstance(value, str) and len(value) > limit:
        return repr(value[: limit - 3] + "...")
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _json_komi(value: Any) -> float:
    """A komi from JSON: a finite number (a huge integer is not, once made a float)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RulesError(f"komi must be a number, not {_shown(value)}")
    try:
        komi = float(value)
    except OverflowError:
        komi = math.inf
    if not math.isfinite(komi):
        raise RulesError(f"komi must be a finite number, not {_shown(value)}")
    return komi


def _enum(key: str, word: str, table: dict[str, Any]) -> Any:
    w = word.strip().upper()
    if w not in table:
        raise RulesError(f"invalid {key} rule {_shown(word)}; expected one of: {', '.join(table)}")
    return table[w]


def _tax(word: str) -> bool:
    w = word.strip().upper()
    if w == "NONE":
        return True
    if w == "SEKI":
        return False
    if w == "ALL":
        raise RulesError("tax ALL (group tax / stone scoring) is not supported by miai")
    raise RulesError(f"invalid tax rule {_shown(word)}; expected one of: NONE, SEKI")


def _bool(key: str, word: str) -> bool:
    w = word.strip().upper()
    if w in _TRUE:
        return True
    if w in _FALSE:
        return False
    raise RulesError(f"{key} must be true or false, not {_shown(word)}")


def _json_bool(key: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        return _bool(key, value)
    raise RulesError(f"{key} must be true or false, not {_shown(value)}")


def _str(key: str, value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise RulesError(f"{key} must be a string, not {_shown(value)}")
    return str(value)
