"""fogdip's one codec: every value that leaves a process (phase documents, results,
positions, records, observations, knowledge, game files) is written and read here, with
Pydantic models that give each form a JSON Schema (exported to ``docs/schema/``).

Reading checks the form and raises :class:`CodecError` with a one-line explanation; the
values read are the engine's and the fog layer's own types.
"""

from fogdip.codec.errors import CodecError
from fogdip.codec.observations import (
    knowledge_from_json,
    knowledge_to_json,
    observation_from_json,
    observation_to_json,
)

__all__ = [
    "CodecError",
    "knowledge_from_json",
    "knowledge_to_json",
    "observation_from_json",
    "observation_to_json",
]
