"""Reading torch.save files (checkpoints, OpenNMT-py checkpoints) without running code from them.

Unpickling calls whatever classes and functions a pickle names (os.system, with the user's rights).
Here every such lookup (GLOBAL, STACK_GLOBAL, INST, OBJ, EXT*: all go through find_class) is answered
from PyTorch's own list for weights_only=True (tensors, storages, their rebuild functions,
OrderedDict, torch.Size) plus what a caller adds; anything else is refused by name, or replaced by
a caller's stand-in that only keeps data. PyTorch 1.13's weights_only reader cannot be used itself:
it cannot read a float (BINFLOAT: a learning rate), and torch.load replaces a given pickle_module by
pickle. So torch.load's own two readers (_load for zip files, _legacy_load for older files) are
called with the restricted unpickler.
"""

import pickle
from typing import Any, Callable, Dict, Optional

import torch
import torch._weights_only_unpickler
from torch import serialization


class Refused(pickle.UnpicklingError):
    pass


def allowed_globals() -> Dict[str, Any]:
    """"module.name" -> the object, for what a tensors-only pickle may name."""
    return torch._weights_only_unpickler._get_allowed_globals()


def _pickle_module(extra: Dict[str, Any], stand_in: Optional[Callable[[str, str], Any]]) -> Any:
    allowed = dict(allowed_globals(), **extra)

    class Restricted(pickle.Unpickler):
        def find_class(self, module: str, name: str) -> Any:
            found = allowed.get(f"{module}.{name}")
            if found is not None:
                return found
            if stand_in is not None:
                return stand_in(module, name)
            raise Refused(f"it names {module}.{name}, which is not a tensor, number, string, list or dict")

    class Module:  # what torch's readers take as pickle_module
        Unpickler = Restricted

        @staticmethod
        def load(f: Any, **kwargs: Any) -> Any:
            return Restricted(f, **kwargs).load()

    return Module


class TorchScriptFile(ValueError):
    """A TorchScript archive (a model file) where a torch.save file was expected."""


def load(f: Any, extra: Optional[Dict[str, Any]] = None,
         stand_in: Optional[Callable[[str, str], Any]] = None) -> Any:
    """torch.load(f, map_location="cpu") with the restricted unpickler: Refused when the pickle names a
    class or function outside the list (and there is no stand-in); TorchScriptFile for a model file."""
    module = _pickle_module(extra or {}, stand_in)
    if serialization._is_zipfile(f):
        with serialization._open_zipfile_reader(f) as archive:
            if serialization._is_torchscript_zip(archive):
                raise TorchScriptFile("a TorchScript model file, not a torch.save file")
            return serialization._load(archive, "cpu", module, encoding="utf-8")
    return serialization._legacy_load(f, "cpu", module, encoding="utf-8")
