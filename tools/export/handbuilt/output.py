"""The files an exporter writes: NAME.pte, and NAME.expected.json with tensors in base64."""

from __future__ import annotations

import base64
import json
import os
from typing import TYPE_CHECKING, Any, Dict, Tuple

import torch

if TYPE_CHECKING:
    from pte_writer import ProgramBuilder


def b64(t: torch.Tensor) -> str:
    """float32 little-endian, row-major, base64."""
    return base64.b64encode(t.detach().contiguous().to(torch.float32).numpy().tobytes()).decode("ascii")


def write_pte(out_dir: str, name: str, pb: "ProgramBuilder") -> Tuple[str, bytes]:
    """Writes OUT_DIR/NAME.pte; returns its path and bytes."""
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, f"{name}.pte")
    return path, pb.write(path)


def write_expected(out_dir: str, name: str, record: Dict[str, Any]) -> str:
    path = os.path.join(out_dir, f"{name}.expected.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(record, f, indent=1)
        f.write("\n")
    return path
