"""Game records: SGF FF[4] read tolerantly and written cleanly, plus Tygem GIB and WBaduk NGF
(docs/RULES.md §9).

The package is layered as sgfmill layers its modules, each knowing only those below it:

- :mod:`~miai.sgf.charset`: bytes to text (a declared ``CA``, valid UTF-8, or a reported guess);
- :mod:`~miai.sgf.grammar`: text to game trees (:class:`SgfNode`) and back; nothing Go-specific;
- :mod:`~miai.sgf.properties`: typed values (points, komi, rules text);
- :mod:`~miai.sgf.foreign`: GIB and NGF converted to trees;
- :mod:`~miai.sgf.record`: a tree's facts as an :class:`SgfRecord` (size, komi, handicap,
  rules, players, :class:`~miai.result.Result`, main line, comments) with one ``repairs``
  line for everything that had to be fixed or guessed;
- :mod:`~miai.sgf.game`: records replayed as :class:`~miai.game.Game` s and games written back.

Reading never raises anything but :class:`~miai.errors.SgfError` for bad input (``OSError``
for a file that cannot be opened), and is linear in time and bounded in memory up to
:data:`MAX_RECORD_BYTES`. docs/SGF.md compares the choices with other readers.

>>> record = read_record("(;SZ[9]KM[6.5]PB[Ann]RE[白认输];B[ee];W[cc])")
>>> record.size, record.komi, record.black, str(record.result), len(record.moves)
(9, 6.5, 'Ann', 'B+R', 2)
>>> record.result_text
'白认输'
"""

from miai.sgf.charset import decode_sgf_bytes
from miai.sgf.game import game_from_record, game_to_sgf, load_game
from miai.sgf.grammar import SgfNode
from miai.sgf.properties import rules_from_text, rules_to_text
from miai.sgf.record import (
    MAX_RECORD_BYTES,
    Event,
    SgfRecord,
    read_collection,
    read_file,
    read_record,
    write_collection,
)

__all__ = [
    "MAX_RECORD_BYTES",
    "Event",
    "SgfNode",
    "SgfRecord",
    "decode_sgf_bytes",
    "game_from_record",
    "game_to_sgf",
    "load_game",
    "read_collection",
    "read_file",
    "read_record",
    "rules_from_text",
    "rules_to_text",
    "write_collection",
]

