"""Tile-language parsing speed over the generic catalogue.

Peer: a Lark LALR grammar of the same language (parse tree only, no model), the usual way to
write such a parser in Python, measured in the same run on the same strings.

Run: ``.venv/bin/python benchmarks/bench_dsl.py``
"""

from __future__ import annotations

from _table import best_of, print_table

from tilelay import dsl
from tilelay.catalogue import tile_codes

GRAMMAR = r"""
start: part (";" part)*
part: NAME ("=" sub ("," sub)*)?
sub: KEY (":" VALUE)?
NAME: /[a-z_]+/
KEY: /[^,;:=]+/
VALUE: /[^,;]+/
"""


def main() -> None:
    from lark import Lark

    codes = [code for _, code in tile_codes().values()]
    lark = Lark(GRAMMAR, parser="lalr")
    for c in codes:  # the peer must accept every string it is timed on
        lark.parse(c) if c else None
    tiles = [dsl.parse(c) for c in codes]
    n = len(codes)
    ours = best_of(lambda: [dsl.parse(c) for c in codes])
    write = best_of(lambda: [dsl.write(t) for t in tiles])
    peer = best_of(lambda: [lark.parse(c) for c in codes if c])
    print_table(
        f"tile language over {n} catalogue tiles (best of 5)",
        [
            ("lark LALR parse tree (peer)", peer, f"{n / peer:,.0f} tiles/s"),
            ("tilelay.dsl.parse -> Tile model", ours, f"{n / ours:,.0f} tiles/s"),
            ("tilelay.dsl.write (canonical string)", write, f"{n / write:,.0f} tiles/s"),
        ],
        peer="lark LALR parse tree (peer)",
    )


if __name__ == "__main__":
    main()
