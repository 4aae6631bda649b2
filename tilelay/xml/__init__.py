"""XML formats: seed 000's Tile Definitions and TileSet files, and the Rails dialect.

All reading goes through :func:`tilelay.xml.safe.parse_xml`, a hardened parser.
"""
