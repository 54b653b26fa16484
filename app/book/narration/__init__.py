"""Only the narration: what generators and publishers wrap around a book's words, taken out.
"""
