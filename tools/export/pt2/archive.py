"""Writes a :class:`program_json.Program` as a ``.pt2`` file in the three container eras.

* ``C`` (torch 2.9+, schema 8.14): PT2 archive by ``PyTorchStreamWriter`` (stream_writer.py),
  root folder = file base name, raw weight storages ``data/weights/weight_<k>`` (tensors that
  share a storage share one blob) + ``model_weights_config.json``, constants likewise
  (``tensor_<k>``, ``model_constants_config.json``), ``models/model.json``,
  ``data/sample_inputs/model.pt``, ``archive_format``, ``archive_version``, ``.data/version``,
  ``byteorder``, ``.data/serialization_id``.
* ``B`` (torch 2.8, schema 8.8): same, but ``data/weights/model.pt`` = torch.save(state_dict)
  and ``data/constants/model.pt`` = torch.save(constants), no configs.
* ``A`` (torch 2.7, schema 8.7): Python ``zipfile`` flat zip (stored, no root folder) with
  ``serialized_exported_program.json``, ``serialized_state_dict.pt``,
  ``serialized_constants.pt``, ``serialized_example_inputs.pt``, ``version`` (``8.7``).
* ``A22`` (torch 2.2): all-tag unions, schema ``2``, ``serialized_state_dict.json`` /
  ``serialized_constants.json`` (torch.save zips despite the name), ``version`` (``2``).

Nested ``torch.save`` payloads are torch 1.13's pickles (identical to torch 2.x's for
tensors and dicts) repacked with the records newer torch adds (``byteorder``,
``.format_version``, ``.storage_alignment``, ``.data/serialization_id``) for the era.
"""

from __future__ import annotations

import io
import os
import zipfile
from typing import Any, Dict, List, Tuple

import torch

from program_json import Program, dumps, program_json, tensor_meta_json
from stream_writer import StreamWriter, read_records

LAYOUTS = ("A22", "A", "B", "C")
LAYOUT_STYLE = {"A22": "2.2", "A": "8.7", "B": "8.8", "C": "8.14"}
#: fixed timestamp for the legacy (Python zipfile) container, for reproducible files
LEGACY_DATE_TIME = (2024, 6, 7, 12, 20, 58)


def torch_save(obj: Any, era: str = "2.9") -> bytes:
    """``torch.save(obj, BytesIO)`` as torch ``era`` writes it (root ``archive/``).

    era "1.13": the local torch's bytes unchanged; "2.2": + ``byteorder`` and a serialization
    id; "2.9": + ``.format_version`` (1), ``.storage_alignment`` (64), ``byteorder``, id.
    """
    b = io.BytesIO()
    torch.save(obj, b)
    raw = b.getvalue()
    if era == "1.13":
        return raw
    prefix, records = read_records(raw)
    assert prefix == "archive", prefix
    rec = dict(records)
    pkl = rec.pop("data.pkl")
    version = rec.pop("version")
    storages = [(n, d) for n, d in records if n.startswith("data/")]
    w = StreamWriter(prefix)
    w.write_record("data.pkl", pkl)
    if era == "2.9":
        w.write_record(".format_version", b"1")
        w.write_record(".storage_alignment", b"64")
    elif era != "2.2":
        raise ValueError(era)
    w.write_record("byteorder", b"little")
    for n, d in storages:
        w.write_record(n, d)
    w.write_record("version", version)
    return w.finish()


def _storage_bytes(t: torch.Tensor) -> Tuple[Any, bytes]:
    """(storage identity, raw bytes of the whole untyped storage)."""
    t = t.detach()
    st = t.storage()  # TypedStorage in 1.13
    key = (st.data_ptr(), st.nbytes() if hasattr(st, "nbytes") else st.size() * t.element_size())
    flat = torch.empty(0, dtype=t.dtype).set_(st, 0, (st.size(),), (1,))
    if t.dtype == torch.bfloat16:
        data = flat.view(torch.int16).numpy().tobytes()
    else:
        data = flat.numpy().tobytes()
    return key, data


def _payload(tensors: Dict[str, torch.Tensor], prefix: str, blob_dir: str
             ) -> Tuple[List[Tuple[str, bytes]], Dict[str, Any]]:
    """Raw-payload records and config (torch >= 2.9 ``_package_state_dict``)."""
    records: List[Tuple[str, bytes]] = []
    config: Dict[str, Any] = {}
    path_of: Dict[Any, str] = {}
    for fqn, t in tensors.items():
        key, data = _storage_bytes(t)
        if key not in path_of:
            path_of[key] = f"{prefix}{len(path_of)}"
            records.append((f"{blob_dir}/{path_of[key]}", data))
        config[fqn] = {"path_name": path_of[key],
                       "is_param": isinstance(t, torch.nn.Parameter),
                       "use_pickle": False,
                       "tensor_meta": tensor_meta_json(t, "8.14", requires_grad=t.requires_grad)}
    return records, {"config": config}


def _tail(w: StreamWriter) -> bytes:
    w.write_record("archive_format", b"pt2")
    w.write_record("archive_version", b"0")
    w.write_record(".data/version", b"6\n")
    w.write_record("byteorder", b"little")
    return w.finish()


def _sample_inputs(p: Program, era: str) -> bytes:
    return torch_save((tuple(p.example_inputs), {}), era)


def write_c(p: Program, root: str) -> bytes:
    w = StreamWriter(root)
    recs, wcfg = _payload(p.state_dict, "weight_", "data/weights")
    for n, d in recs:
        w.write_record(n, d)
    w.write_record("data/weights/model_weights_config.json", dumps(wcfg).encode())
    recs, ccfg = _payload(p.constants, "tensor_", "data/constants")
    for n, d in recs:
        w.write_record(n, d)
    w.write_record("data/constants/model_constants_config.json", dumps(ccfg).encode())
    w.write_record("models/model.json", program_json(p, "8.14").encode())
    w.write_record("data/sample_inputs/model.pt", _sample_inputs(p, "2.9"))
    return _tail(w)


def write_b(p: Program, root: str) -> bytes:
    w = StreamWriter(root)
    w.write_record("data/weights/model.pt", torch_save(dict(p.state_dict), "2.9"))
    w.write_record("data/constants/model.pt", torch_save(dict(p.constants), "2.9"))
    w.write_record("models/model.json", program_json(p, "8.8").encode())
    w.write_record("data/sample_inputs/model.pt", _sample_inputs(p, "2.9"))
    return _tail(w)


def _legacy_zip(records: List[Tuple[str, bytes]]) -> bytes:
    b = io.BytesIO()
    with zipfile.ZipFile(b, "w", compression=zipfile.ZIP_STORED) as z:
        for name, data in records:
            zi = zipfile.ZipInfo(name, date_time=LEGACY_DATE_TIME)
            zi.compress_type = zipfile.ZIP_STORED
            zi.external_attr = 0o600 << 16
            z.writestr(zi, data)
    return b.getvalue()


def write_a(p: Program) -> bytes:
    return _legacy_zip([
        ("serialized_exported_program.json", program_json(p, "8.7").encode()),
        ("serialized_state_dict.pt", torch_save(dict(p.state_dict), "2.9")),
        ("serialized_constants.pt", torch_save(dict(p.constants), "2.9")),
        ("serialized_example_inputs.pt", _sample_inputs(p, "2.9")),
        ("version", b"8.7"),
    ])


def write_a22(p: Program) -> bytes:
    return _legacy_zip([
        ("serialized_exported_program.json", program_json(p, "2.2").encode()),
        ("serialized_state_dict.json", torch_save(dict(p.state_dict), "2.2")),
        ("serialized_constants.json", torch_save(dict(p.constants), "2.2")),
        ("version", b"2"),
    ])


def write(p: Program, path: str, layout: str) -> int:
    root = os.path.splitext(os.path.basename(path))[0]
    if layout == "C":
        data = write_c(p, root)
    elif layout == "B":
        data = write_b(p, root)
    elif layout == "A":
        data = write_a(p)
    elif layout == "A22":
        data = write_a22(p)
    else:
        raise ValueError(layout)
    with open(path, "wb") as f:
        f.write(data)
    return len(data)
