"""Shared parts of the exporters that write ExecuTorch programs by hand (torch 1.13 has no
torch.export): an emitter over tools/pte/pte_writer.py that records what planning and checking
need, ExecuTorch's memory plan made from it, a replay of the written method, and the files."""

import os
import sys

REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
# pte_writer is a script in tools/pte, not a package.
sys.path.insert(0, os.path.join(REPO, "tools", "pte"))

from pte_writer import Method, ProgramBuilder, flatc_json  # noqa: E402

from .cli import run_main  # noqa: E402
from .emitter import (TORCH_DTYPES, Emitter, ExportError, Size, Sym, TensorInfo,  # noqa: E402
                      concrete, numel)
from .memory_plan import (PLAN_ALIGNMENT, MemoryPlan, build_planned, naive_total,  # noqa: E402
                          plan_memory, planned_bases)
from .output import b64, write_expected, write_pte  # noqa: E402
from .replay import KERNELS, DelegateKernel, Replay  # noqa: E402

__all__ = [
    "REPO", "Method", "ProgramBuilder", "flatc_json",
    "TORCH_DTYPES", "Emitter", "ExportError", "Size", "Sym", "TensorInfo", "concrete", "numel",
    "PLAN_ALIGNMENT", "MemoryPlan", "build_planned", "naive_total", "plan_memory", "planned_bases",
    "b64", "write_expected", "write_pte",
    "KERNELS", "DelegateKernel", "Replay", "run_main",
]
