"""The architecture of AlignScope's RNN encoder-decoder: the fields of core/model/ModelSpec.h."""

import dataclasses
from typing import Any, Dict


@dataclasses.dataclass
class Architecture:
    """Same fields and defaults as core/model/ModelSpec.h."""

    cell: str = "gru"  # gru | lstm
    bidirectional: bool = True
    attention: str = "additive"  # additive | dot | general | none
    embedding_size: int = 256
    encoder_hidden: int = 256  # per direction
    decoder_hidden: int = 512
    attention_size: int = 256  # width of v (additive only)
    readout_size: int = 256
    tie_output: bool = True  # output projection = target embeddings (readout == embedding size)
    decoder: str = "bahdanau"  # bahdanau (attention from s_{t-1}) | conditional (reads y_{t-1} first)

    @property
    def encoder_output_size(self) -> int:
        return 2 * self.encoder_hidden if self.bidirectional else self.encoder_hidden

    @property
    def state_size(self) -> int:
        return 2 * self.decoder_hidden if self.cell == "lstm" else self.decoder_hidden

    def validate(self) -> None:
        if self.cell not in ("gru", "lstm"):
            raise ValueError(f"unknown cell '{self.cell}' (gru or lstm)")
        if self.attention not in ("additive", "dot", "general", "none"):
            raise ValueError(f"unknown attention '{self.attention}' (additive, dot, general or none)")
        if self.decoder not in ("bahdanau", "conditional"):
            raise ValueError(f"unknown decoder '{self.decoder}' (bahdanau or conditional)")
        for name in ("embedding_size", "encoder_hidden", "decoder_hidden", "attention_size", "readout_size"):
            if not 1 <= getattr(self, name) <= 8192:
                raise ValueError(f"{name} must be between 1 and 8192")
        if self.tie_output and self.readout_size != self.embedding_size:
            raise ValueError("a tied output layer needs readout size == embedding size")
        if self.attention == "dot" and self.decoder_hidden != self.encoder_output_size:
            raise ValueError(f"dot attention needs decoder hidden size == encoder output size ({self.encoder_output_size})")

    def to_json(self) -> Dict[str, Any]:
        """The "architecture" metadata, as ModelSpec::toJson writes it."""
        j = dataclasses.asdict(self)
        j["encoder_output_size"] = self.encoder_output_size
        j["state_size"] = self.state_size
        return j

    @staticmethod
    def from_json(j: Dict[str, Any]) -> "Architecture":
        names = {f.name for f in dataclasses.fields(Architecture)}
        return Architecture(**{k: v for k, v in j.items() if k in names})


def architecture_of(j: Any, where: str) -> Architecture:
    """The "architecture" of a checkpoint or model file, each field checked: ValueError naming `where`
    and the key (a string or a list there gave AttributeError deep inside)."""
    if not isinstance(j, dict):
        raise ValueError(f"{where}: 'architecture' must be an object, not {type(j).__name__}")
    fields = {f.name: f for f in dataclasses.fields(Architecture)}
    values = {}
    for key, value in j.items():
        if key not in fields:
            continue
        kind = type(getattr(Architecture(), key))
        # bool is an int in Python: each is checked as exactly its own type
        if type(value) is not kind:
            expected = {bool: "true or false", int: "an integer", str: "a string"}[kind]
            raise ValueError(f"{where}: 'architecture.{key}' must be {expected}")
        values[key] = value
    arch = Architecture(**values)
    try:
        arch.validate()
    except ValueError as e:
        raise ValueError(f"{where}: 'architecture': {e}") from None
    return arch
