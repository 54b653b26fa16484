"""A book's structure: blocks, chapter headings, contents listings, what one line says.
"""
