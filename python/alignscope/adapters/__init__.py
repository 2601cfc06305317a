"""Adapters: other people's trained models turned into AlignScope model files (format v2)."""
